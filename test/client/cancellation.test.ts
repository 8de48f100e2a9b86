import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APITimeoutError, APIUserAbortError } from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();
const create = (signal: AbortSignal) =>
  client().projects.create({ name: 'P', agentId: 'a' }, { signal });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Resolves once the mock has received `count` requests. */
async function received(count: number): Promise<void> {
  await vi.waitFor(() => expect(mock.requestLog().length).toBeGreaterThanOrEqual(count), {
    interval: 1,
  });
}

describe('cancellation', () => {
  it('sends nothing when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    const error = await create(controller.signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toMatchObject({ message: 'user left' });
    expect(mock.requestLog()).toHaveLength(0);
  });

  it('ends an attempt in flight at once, with no later attempt', async () => {
    mock.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const call = create(controller.signal).catch((e: unknown) => e);
    await received(1);
    controller.abort();
    const error = await call;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toBe('POST /v1/projects was aborted');
    await vi.runAllTimersAsync();
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('ends a backoff sleep at once, with no later attempt', async () => {
    mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const call = create(controller.signal).catch((e: unknown) => e);
    await received(1);
    await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0), { interval: 1 });
    controller.abort();
    expect(await call).toBeInstanceOf(APIUserAbortError);
    await vi.runAllTimersAsync();
    expect(mock.requestLog()).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes an abort over a timeout that fires later', async () => {
    mock.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const call = client()
      .projects.get('proj_1', { signal: controller.signal, timeout: 5000 })
      .catch((e: unknown) => e);
    await received(1);
    controller.abort();
    expect(await call).toBeInstanceOf(APIUserAbortError);
  });

  it('leaves no listener on a long-lived signal after calls finish', async () => {
    const controller = new AbortController();
    // A retry makes the call wait on the signal during its backoff too.
    mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after-ms': '1' } });
    const retried = create(controller.signal);
    await vi.runAllTimersAsync();
    await retried;
    await create(controller.signal);
    expect(mock.requestLog()).toHaveLength(3);
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });
});

describe('a custom fetch that ignores its signal', () => {
  const deaf = () => new Promise<Response>(() => {}); // never settles, never looks at the signal

  it('still ends at the timeout', async () => {
    const call = client({ fetch: deaf, maxRetries: 0 })
      .projects.get('proj_1', { timeout: 1000 })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await call).toBeInstanceOf(APITimeoutError);
  });

  it('still ends at once on abort', async () => {
    const controller = new AbortController();
    const call = client({ fetch: deaf })
      .projects.get('proj_1', { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect(await call).toBeInstanceOf(APIUserAbortError);
  });
});
