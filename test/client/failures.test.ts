/**
 * Every way a call can fail, read into the SDK's error tree through the public API: a non-2xx
 * answer, an attempt past its deadline (the body read included), a connection refused or dropped
 * mid-body, a 2xx body that is not JSON or breaks the schema, and the caller's abort. None of them
 * lets a transport error or a raw TypeError/SyntaxError through, and none keeps the request (whose
 * Authorization header holds the key) anywhere `util.inspect` reaches.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AgentChatError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  Client,
  InternalServerError,
  ResponseValidationError,
} from '../../src/index.js';
import { project } from '../helpers/hostile-server.js';
import { keepIdleConnections } from '../helpers/keep-alive.js';
import { leaksOf } from '../helpers/reliability.js';

const apiKey = 'sk_live_5e0c2a9b7d3f41c8a6b2';
/** A service on 127.0.0.1 that answers each request with the next scripted behaviour. */
let server: Server;
let baseUrl: string;
let script: ((res: ServerResponse) => void)[] = [];
let received = 0;

beforeAll(async () => {
  server = keepIdleConnections(
    createServer((req, res) => {
      received++;
      req.resume();
      const next = script.shift() ?? ((r) => json(r, 200, project));
      next(res);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterEach(() => {
  script = [];
  received = 0;
  vi.useRealTimers();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_test' });
  res.end(JSON.stringify(body));
}

/** Sends the headers and half the body, then drops the connection. */
function dropMidBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
  res.write('{"id":"proj_1","na');
  setImmediate(() => res.socket?.destroy());
}

const client = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ apiKey, baseUrl, ...options });
const get = (options: ConstructorParameters<typeof Client>[0] = {}) =>
  client(options)
    .projects.get('proj_1')
    .catch((error: unknown) => error);

/** True when a Request (which carries the Authorization header) is reachable from the value. */
function reachesRequest(value: unknown, seen = new Set<unknown>()): boolean {
  if (typeof value !== 'object' || value === null || seen.has(value)) return false;
  seen.add(value);
  if (value instanceof Request) return true;
  return Reflect.ownKeys(value).some((key) =>
    reachesRequest(Object.getOwnPropertyDescriptor(value, key)?.value, seen),
  );
}

/** What every error must be: in the tree, with nothing that prints the key. */
function expectClean(error: unknown): void {
  expect(error).toBeInstanceOf(AgentChatError);
  expect(leaksOf(error, apiKey)).toEqual([]);
  expect(reachesRequest(error)).toBe(false);
}

describe('a non-2xx answer', () => {
  it('is the status’s APIError, after the retries it allows', async () => {
    script = [0, 1, 2].map(
      () => (res) =>
        res
          .writeHead(503, { 'content-type': 'application/json', 'retry-after-ms': '0' })
          .end(JSON.stringify({ error: { message: 'busy' } })),
    );
    const error = await get({ maxRetries: 2, timeout: 5_000 });
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).message).toContain('busy');
    expect(received).toBe(3);
    expectClean(error);
  });
});

describe('a connection', () => {
  it('that is refused is an APIConnectionError with the platform’s reason as its cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await get({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expectClean(error);
  });

  it('that a custom fetch fails is an APIConnectionError counting every attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const proxyDown = new Error('proxy down');
    let calls = 0;
    const failing = async () => {
      calls++;
      throw proxyDown;
    };
    const outcome = get({ fetch: failing, maxRetries: 2 });
    await vi.runAllTimersAsync();
    const error = await outcome;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).cause).toBe(proxyDown);
    expect((error as APIConnectionError).attempts).toBe(3);
    expect((error as Error).message).toBe(
      'GET /v1/projects/proj_1 could not reach the service (proxy down) after 3 attempts',
    );
    expect(calls).toBe(3);
    expectClean(error);
  });

  it('dropped in the middle of the body is retried like any connection failure', async () => {
    script = [dropMidBody];
    const result = await client({ maxRetries: 1 }).projects.get('proj_1');
    expect(result.id).toBe('proj_1');
    expect(received).toBe(2);
  });

  it('dropped in the middle of the body fails as APIConnectionError once retries run out', async () => {
    script = [dropMidBody];
    const error = await get({ maxRetries: 0 });
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toMatch(/terminated/);
    expectClean(error);
  });
});

describe('the attempt’s deadline', () => {
  it('ends an attempt whose body never finishes', async () => {
    // Headers at once, then a body that never ends: only the deadline can end the attempt.
    script = [
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":');
      },
    ];
    const error = await get({ maxRetries: 0, timeout: 200 });
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toBe(
      'GET /v1/projects/proj_1 timed out (200 ms per attempt) after 1 attempt',
    );
    expectClean(error);
  });

  it('is one deadline for the headers and the body together, not a window each', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const encoder = new TextEncoder();
    // Headers after 600 ms of the 1 000 ms; the body then stalls.
    const slowFetch = async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      const body = new ReadableStream({
        start: (controller) => controller.enqueue(encoder.encode('{"id":')),
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const started = Date.now();
    let endedAt = 0;
    const call = get({ fetch: slowFetch, maxRetries: 0, timeout: 1_000 }).then((error) => {
      endedAt = Date.now();
      return error;
    });
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await call;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(endedAt - started).toBe(1_000);
    expectClean(error);
  });
});

describe('a 2xx body', () => {
  it('that is not JSON is a ResponseValidationError, never a SyntaxError', async () => {
    script = [(res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>ok</h1>')];
    const error = await get({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, body: '<h1>ok</h1>' });
    expect((error as ResponseValidationError).issues).toEqual([
      { path: '', message: 'the body is not JSON' },
    ]);
    expectClean(error);
  });

  it('that breaks the schema names each field in words', async () => {
    script = [(res) => json(res, 200, { ...project, name: 42, createdAt: undefined })];
    const error = await get({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([
      { path: 'name', message: 'expected a string, received number' },
      { path: 'createdAt', message: 'is required (expected a string)' },
    ]);
    expect((error as ResponseValidationError).requestId).toBe('req_test');
    expectClean(error);
  });

  it('that is empty is a ResponseValidationError', async () => {
    script = [(res) => res.writeHead(200).end()];
    const error = await get({ maxRetries: 0 });
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectClean(error);
  });
});

describe('the caller’s abort', () => {
  it('during an attempt is an APIUserAbortError with the signal’s reason, and ends the call', async () => {
    const controller = new AbortController();
    // The service never answers; the caller gives up once the request has arrived.
    script = [() => controller.abort(new Error('user left'))];
    const aborted = await client({ maxRetries: 2 })
      .projects.get('proj_1', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(APIUserAbortError);
    expect((aborted as Error).cause).toMatchObject({ message: 'user left' });
    expect(received).toBe(1);
    expectClean(aborted);
  });
});
