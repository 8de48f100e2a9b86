import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryDelay, serverRetryAfter } from '../../src/core/retry-policy.js';
import {
  APIConnectionError,
  APITimeoutError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  retryDefaults,
  UnprocessableEntityError,
} from '../../src/index.js';
import type { Fault } from '../../src/testing/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

/** Runs a call to completion under fake timers, returning its result or error and the waits taken. */
async function settle<T>(
  start: () => Promise<T>,
): Promise<{ value?: T; error?: unknown; waits: number[] }> {
  const waits: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    fn: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    // Attempt timeouts are 60 s by default; backoff sleeps are the other timers, but for ky's
    // own zero-length one before each retry (the policy has already waited).
    if (ms !== undefined && ms > 0 && ms < 60_000) waits.push(ms);
    return realSetTimeout(fn, ms, ...args);
  }) as typeof setTimeout);
  try {
    const outcome = start().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await vi.runAllTimersAsync();
    return { ...(await outcome), waits };
  } finally {
    spy.mockRestore();
  }
}

const site = { method: 'POST', path: '/v1/projects' };
const create = (options = {}) => client().projects.create({ name: 'P', agentId: 'a' }, options);
const status = (code: number, headers?: Record<string, string>): Fault =>
  headers ? { kind: 'status', status: code, headers } : { kind: 'status', status: code };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('which failures are retried', () => {
  it.each([408, 409, 429, 500, 502, 503, 504])('retries %i and then succeeds', async (code) => {
    mock.enqueue(status(code));
    const { value } = await settle(create);
    expect(value?.id).toMatch(/^proj_/);
    expect(mock.requestLog()).toHaveLength(2);
  });

  it.each([
    [400, BadRequestError],
    [404, NotFoundError],
    [422, undefined],
  ])('does not retry %i', async (code, ErrorClass) => {
    mock.enqueue(status(code));
    const { error } = await settle(create);
    if (ErrorClass) expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status: code });
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('retries a dropped connection', async () => {
    mock.enqueue({ kind: 'network-error' });
    const { value } = await settle(create);
    expect(value?.name).toBe('P');
    expect(mock.requestLog()).toHaveLength(2);
  });

  it('gives up after maxRetries + 1 attempts with the last error', async () => {
    mock.enqueue(status(500), status(502), status(503), status(504));
    const { error } = await settle(create);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503 });
    expect(mock.requestLog()).toHaveLength(3);
  });

  it('honours maxRetries per client and per request', async () => {
    mock.enqueue(status(500), status(500), status(500), status(500), status(500));
    await settle(() => client({ maxRetries: 0 }).projects.get('p'));
    expect(mock.requestLog()).toHaveLength(1);
    await settle(() => client({ maxRetries: 0 }).projects.get('p', { maxRetries: 3 }));
    expect(mock.requestLog()).toHaveLength(5);
  });

  it('obeys x-should-retry over the status', async () => {
    mock.enqueue(status(503, { 'x-should-retry': 'false' }));
    expect((await settle(create)).error).toBeInstanceOf(InternalServerError);
    expect(mock.requestLog()).toHaveLength(1);

    mock.reset();
    mock.enqueue(status(400, { 'x-should-retry': 'true' }));
    expect((await settle(create)).value?.name).toBe('P');
    expect(mock.requestLog()).toHaveLength(2);
  });
});

describe('backoff', () => {
  it('grows from 0.5 s, doubling, with up to 25 % jitter taken off', async () => {
    mock.enqueue(status(500), status(500), status(500), status(500));
    const { waits } = await settle(() => create({ maxRetries: 4 }));
    expect(waits).toHaveLength(4);
    [500, 1000, 2000, 4000].forEach((base, retry) => {
      expect(waits[retry]).toBeGreaterThan(base * 0.75 - 1);
      expect(waits[retry]).toBeLessThanOrEqual(base);
    });
  });

  it('caps at 8 s', () => {
    const dropped = new APIConnectionError(site, new TypeError('fetch failed'));
    expect(retryDelay(dropped, 10, () => 0)).toBe(retryDefaults.maxDelayMs);
    expect(retryDelay(dropped, 3, () => 1)).toBe(4000 * 0.75);
  });

  it('waits what Retry-After says in seconds', async () => {
    mock.enqueue(status(429, { 'retry-after': '3' }));
    const { waits, value } = await settle(create);
    expect(value).toBeDefined();
    expect(waits).toEqual([3000]);
  });

  it('waits until a Retry-After HTTP date', async () => {
    const at = new Date(Date.now() + 5000).toUTCString();
    mock.enqueue(status(503, { 'retry-after': at }));
    const { waits } = await settle(create);
    expect(waits[0]).toBeGreaterThan(3900);
    expect(waits[0]).toBeLessThanOrEqual(5000);
  });

  it('prefers retry-after-ms', async () => {
    mock.enqueue(status(503, { 'retry-after-ms': '250', 'retry-after': '9' }));
    const { waits } = await settle(create);
    expect(waits).toEqual([250]);
  });

  it('waits the backoff, not a RateLimit-Reset, which the contract does not read', async () => {
    // ky 2.2 reads RateLimit-Reset (and X-RateLimit-Reset...) when Retry-After is missing, and
    // would wait its 30 s after the policy's own backoff.
    mock.enqueue(status(429, { 'ratelimit-reset': '30' }));
    const { waits, value } = await settle(create);
    expect(value).toBeDefined();
    expect(mock.requestLog()).toHaveLength(2);
    // The backoff before retry 0 (undici's own 499 ms tick may be among the timers too).
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(retryDefaults.initialDelayMs);
  });

  it('retries at once on Retry-After: 0', async () => {
    mock.enqueue(status(429, { 'retry-after': '0' }));
    const { waits, value } = await settle(create);
    expect(value).toBeDefined();
    expect(mock.requestLog()).toHaveLength(2);
    expect(waits).toEqual([]);
  });

  it('fails fast when the server asks for more than 60 s', async () => {
    mock.enqueue(status(429, { 'retry-after': '61' }));
    const { error, waits } = await settle(create);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(61_000);
    expect(waits).toEqual([]);
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('falls back to backoff when Retry-After is unreadable', () => {
    const headers = new Headers({ 'retry-after': 'soon' });
    expect(serverRetryAfter(headers)).toBeUndefined();
    const unavailable = new InternalServerError(site, { status: 503, headers, body: undefined });
    expect(retryDelay(unavailable, 0, () => 0)).toBe(500);
  });
});

describe('idempotency', () => {
  it('sends one Idempotency-Key on every attempt of a call', async () => {
    mock.enqueue(status(503), { kind: 'network-error' });
    await settle(create);
    const keys = mock.requestLog().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('uses a new key for each call', async () => {
    await settle(create);
    await settle(create);
    const [first, second] = mock.requestLog().map((r) => r.headers['idempotency-key']);
    expect(first).not.toBe(second);
  });

  it('sends the caller’s idempotencyKey, so a repeated call creates nothing new', async () => {
    const a = await settle(() => create({ idempotencyKey: 'order-7' }));
    const b = await settle(() => create({ idempotencyKey: 'order-7' }));
    expect(b.value?.id).toBe(a.value?.id);
    expect(mock.projects()).toHaveLength(1);
    expect(mock.requestLog().map((r) => r.headers['idempotency-key'])).toEqual([
      'order-7',
      'order-7',
    ]);
  });

  it('reports a key reused with another body as UnprocessableEntityError, without retrying', async () => {
    await settle(() => create({ idempotencyKey: 'k1' }));
    const { error } = await settle(() =>
      client().projects.create({ name: 'Other', agentId: 'a' }, { idempotencyKey: 'k1' }),
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(mock.requestLog()).toHaveLength(2);
  });
});

describe('timeouts', () => {
  it('ends an attempt that runs past timeout with APITimeoutError, retrying it', async () => {
    mock.enqueue({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const { error } = await settle(() => create({ timeout: 1000 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'POST /v1/projects timed out (1000 ms per attempt) after 3 attempts',
    );
    expect((error as APITimeoutError).attempts).toBe(3);
    expect(mock.requestLog()).toHaveLength(3);
  });

  it('succeeds when a retry beats the timeout', async () => {
    mock.enqueue({ kind: 'hang' });
    const { value } = await settle(() => create({ timeout: 1000 }));
    expect(value?.name).toBe('P');
  });

  it('bounds each attempt, not the whole call', async () => {
    // Two attempts of 800 ms each, plus a backoff: longer than the timeout in all, but each fits.
    mock.setLatency(800);
    mock.enqueue(status(503));
    const { value } = await settle(() => create({ timeout: 1000 }));
    expect(value?.name).toBe('P');
    expect(mock.requestLog()).toHaveLength(2);
  });
});
