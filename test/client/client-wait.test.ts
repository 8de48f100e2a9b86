/**
 * One Retry-After per client: a 429 or 503 that names a wait holds every call of the client
 * family until it ends, proved by when the requests reach a real HTTP server on 127.0.0.1. The
 * clock is fake and moves only once what the test waits for has happened (a request arrived, a
 * call was held), never while a request is on the wire.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ClientWait } from '../../src/core/client-wait.js';
import {
  APITimeoutError,
  APIUserAbortError,
  Client,
  type ClientOptions,
  type Middleware,
  RateLimitError,
} from '../../src/index.js';
import { until, useFakeClock } from '../helpers/fake-clock.js';
import { json, project, startHostileServer } from '../helpers/hostile-server.js';
import { recordingLogger } from '../helpers/reliability.js';

const apiKey = 'sk_live_wait_3e8f1a6b2c';
const server = await startHostileServer();
afterAll(() => server.close());

useFakeClock();

/** When each request reached the server, on the fake clock (the server runs in this process). */
let arrivals: number[];
/** The server's answer to each request, kept until the test gives it. */
let unanswered: Map<number, ServerResponse>;

/** A server whose first request gets `status` asking for `retryAfter`, and every other a project. */
function limitsFirst(status: 429 | 503, retryAfter: string): void {
  arrivals = [];
  server.answer((_req, res, index) => {
    arrivals.push(Date.now());
    if (index === 0) json(res, status, {}, { 'retry-after': retryAfter });
    else json(res, 200, project);
  });
}

/** A client that logs at `info`, and what its middleware saw of each attempt. */
function newClient(options: ClientOptions = {}) {
  const logger = recordingLogger();
  const attempts: { heldMs: number }[] = [];
  const record: Middleware = (request, next, { heldMs }) => {
    attempts.push({ heldMs });
    return next(request);
  };
  const client = new Client({
    apiKey,
    baseUrl: server.baseUrl,
    logger,
    logLevel: 'info',
    middleware: [record],
    ...options,
  });
  const heldLines = () => logger.lines.filter((line) => line.text.includes(' held '));
  return { client, logger, attempts, heldLines };
}

/**
 * Moves the clock `ms` to the end of a wait, synchronously: the timers due fire, and what they start
 * runs after, outside the clock's tick. A timer of 0 ms set then (ky sets one before each retry) is
 * due at once, for `until` to run; set inside an asynchronous tick, it would be put 1 ms later.
 */
function releaseWait(ms: number): void {
  vi.advanceTimersByTime(ms);
}

const get = (client: Pick<Client, 'projects'>, options = {}) =>
  client.projects.get('proj_1', options);

describe('a Retry-After within 60 s', () => {
  it('holds the calls the client starts during it, so that none reaches the server early', async () => {
    limitsFirst(429, '1');
    const { client, attempts, heldLines, logger } = newClient({ logLevel: 'debug' });
    const started = Date.now();

    const first = get(client);
    // The 429 has been read (the client's wait is in force) once its call waits to retry.
    await until(
      () => logger.lines.some((line) => line.text.includes('retrying in 1000 ms')),
      'the 429',
    );
    const held = [get(client), get(client.withOptions({ timeout: 5_000 })), get(client)];
    await until(() => heldLines().length === 3, 'three calls held');

    expect(heldLines().map((line) => line.level)).toEqual(['info', 'info', 'info']);
    expect(heldLines()[0]?.text).toContain(
      'agentchat: GET /v1/projects/proj_1 held 1000 ms: the service asked this client to wait (Retry-After)',
    );
    await vi.advanceTimersByTimeAsync(999);
    // No timer of the wait has fired: no attempt started, nothing sent.
    expect(attempts).toHaveLength(1);
    expect(server.requests).toBe(1);

    releaseWait(1);
    await until(() => server.requests === 5, 'the retry and the three held calls');
    const results = await Promise.all([first, ...held]);

    expect(results.map((result) => result.id)).toEqual(['proj_1', 'proj_1', 'proj_1', 'proj_1']);
    for (const arrival of arrivals.slice(1)) expect(arrival - started).toBeGreaterThanOrEqual(1000);
    // The middleware of each held call's attempt was told how long it was held.
    expect(
      attempts
        .slice(1)
        .map((attempt) => attempt.heldMs)
        .sort(),
    ).toEqual([0, 1000, 1000, 1000]);
  });

  it('holds a call under its own signal, totalTimeout and timeout', async () => {
    limitsFirst(503, '10');
    const { client, attempts, heldLines } = newClient({ maxRetries: 0 });
    await expect(get(client)).rejects.toMatchObject({ status: 503 });

    // An abort ends the wait at once.
    const controller = new AbortController();
    const aborted = get(client, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
    // A wait that would end past the call's totalTimeout ends the call at once.
    const late = await get(client, { totalTimeout: 5_000 }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(APITimeoutError);
    expect((late as Error).message).toContain('5000 ms for the whole call');
    expect(server.requests).toBe(1);

    // An attempt's timeout bounds the attempt once it is sent, not the wait before it.
    const patient = get(client, { timeout: 2_000 });
    // The aborted call was held too, before its abort.
    expect(heldLines()).toHaveLength(2);
    releaseWait(10_000);
    await expect(patient).resolves.toMatchObject({ id: 'proj_1' });
    expect(server.requests).toBe(2);
    expect(attempts.map((attempt) => attempt.heldMs)).toEqual([0, 10_000]);
  });

  it('is never shortened by a shorter hint that arrives later', async () => {
    arrivals = [];
    unanswered = new Map();
    server.answer((_req, res, index) => {
      arrivals.push(Date.now());
      if (index < 2) unanswered.set(index, res);
      else json(res, 200, project);
    });
    const { client, logger, heldLines } = newClient({ logLevel: 'debug' });
    const started = Date.now();
    const retrying = () => logger.lines.filter((line) => line.text.includes('; retrying in '));

    const both = [get(client), get(client)];
    await until(() => unanswered.size === 2, 'both requests');
    json(unanswered.get(0) as ServerResponse, 503, {}, { 'retry-after': '30' });
    await until(() => retrying().length === 1, 'the 503 to be read');
    json(unanswered.get(1) as ServerResponse, 429, {}, { 'retry-after': '1' });
    await until(() => retrying().length === 2, 'the 429 to be read');
    // The 429's own retry waits out the 503's 30 s, not its own 1 s.
    expect(retrying()[1]?.text).toContain('retrying in 30000 ms');
    expect(heldLines()[0]?.text).toContain('held 29000 ms: the service asked this client to wait');
    const third = get(client);
    await until(() => heldLines().length === 2, 'a new call held');
    expect(heldLines()[1]?.text).toContain('held 30000 ms');

    await vi.advanceTimersByTimeAsync(29_999);
    expect(server.requests).toBe(2);
    releaseWait(1);
    await until(() => server.requests === 5, 'the two retries and the held call');
    await expect(Promise.all([...both, third])).resolves.toHaveLength(3);
    for (const arrival of arrivals.slice(2)) expect(arrival - started).toBe(30_000);
  });
});

describe('a Retry-After over 60 s', () => {
  it('fails the calls the client starts during it at once with RateLimitError, nothing sent', async () => {
    limitsFirst(429, '120');
    const { client, logger } = newClient();

    const first = await get(client).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(RateLimitError);
    expect((first as RateLimitError).retryAfter).toBe(120_000);
    logger.lines.length = 0;

    const later = await Promise.all(
      [get(client), get(client.withOptions({ maxRetries: 5 }))].map((call) =>
        call.catch((e: unknown) => e),
      ),
    );

    expect(server.requests).toBe(1);
    for (const error of later) {
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, retryAfter: 120_000 });
      expect((error as Error).message).toBe(
        'GET /v1/projects/proj_1 was not sent: the service asked this client to wait 120 s ' +
          '(Retry-After), over 60 s; send it after retryAfter ms',
      );
    }
    expect(logger.lines.map((line) => line.level)).toEqual(['info', 'info']);
    expect(logger.lines[0]?.text).toContain('was not sent');
    expect(logger.lines[0]?.text).not.toContain(apiKey);

    // Once the wait is over, calls are sent again.
    vi.setSystemTime(Date.now() + 120_000);
    await expect(get(client)).resolves.toMatchObject({ id: 'proj_1' });
    expect(server.requests).toBe(2);
  });

  it('ends the retries of a call already running with that call’s own error, saying why', async () => {
    arrivals = [];
    unanswered = new Map();
    server.answer((_req, res, index) => {
      arrivals.push(Date.now());
      unanswered.set(index, res);
    });
    const { client } = newClient();

    const [one, other] = [get(client), get(client)].map((call) => call.catch((e: unknown) => e));
    await until(() => unanswered.size === 2, 'both requests');
    json(unanswered.get(0) as ServerResponse, 503, {}, { 'retry-after': '120' });
    // Not retried (its wait is over 60 s): the client's wait is in force once it has failed.
    const limited = await one;
    json(unanswered.get(1) as ServerResponse, 500, {});
    const failed = await other;

    expect(limited).toMatchObject({ status: 503 });
    expect(failed).toMatchObject({ status: 500 });
    expect((failed as Error).message).toContain(
      'not retried: the service asked this client to wait 120 s (Retry-After), over 60 s',
    );
    expect(server.requests).toBe(2);
  });
});

describe('ClientWait', () => {
  const response = (status: number, headers: Record<string, string>) =>
    new Response(null, { status, headers });

  it('takes a wait from a 429 or a 503 only', () => {
    const wait = new ClientWait();
    wait.note(response(500, { 'retry-after': '5' }));
    wait.note(response(200, { 'retry-after': '5' }));
    expect(wait.until).toBe(0);
    wait.note(response(503, { 'retry-after-ms': '1500' }));
    expect(wait.until).toBe(Date.now() + 1500);
  });

  it('keeps the later end', () => {
    // On a whole second, as an HTTP date counts in seconds.
    vi.setSystemTime(new Date('2026-11-24T12:00:00Z'));
    const wait = new ClientWait();
    wait.note(response(429, { 'retry-after': '30' }));
    wait.note(response(503, { 'retry-after': '1' }));
    expect(wait.until).toBe(Date.now() + 30_000);
    wait.note(response(503, { 'retry-after': new Date(Date.now() + 45_000).toUTCString() }));
    expect(wait.until).toBe(Date.now() + 45_000);
  });
});
