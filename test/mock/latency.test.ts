import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { create } from '../helpers/send-to-mock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('latency', () => {
  it('holds every answer for the set time', async () => {
    vi.useFakeTimers();
    const mock = createMockService({ latencyMs: 1_000 });
    let answered = false;
    const pending = create(mock).then(() => {
      answered = true;
    });

    await vi.advanceTimersByTimeAsync(999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(answered).toBe(true);
  });

  it('adds a delay fault to one request only', async () => {
    vi.useFakeTimers();
    const mock = createMockService();
    mock.enqueue({ kind: 'delay', ms: 500 });

    const delayed = create(mock);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect((await delayed).status).toBe(201);

    expect((await create(mock)).status).toBe(201);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer when the request aborts', async () => {
    vi.useFakeTimers();
    const mock = createMockService();
    mock.setLatency(60_000);
    const controller = new AbortController();

    const pending = create(mock, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();

    expect((await pending).type).toBe('error');
    expect(vi.getTimerCount()).toBe(0);
    expect(mock.projects()).toEqual([]);
  });

  it('goes back to the option on reset()', async () => {
    vi.useFakeTimers();
    const mock = createMockService({ latencyMs: 300 });
    mock.setLatency(0);
    mock.reset();

    const pending = create(mock);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(300);
    expect((await pending).status).toBe(201);
  });
});
