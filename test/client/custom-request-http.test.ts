/**
 * `client.request` over real sockets: the mock service on 127.0.0.1 for auth, retries and
 * errors; a recording server for the exact path that reaches the wire, and a second server on
 * another port (another origin) that no path, however written, may reach.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  Client,
  NotFoundError,
  path,
  RequestValidationError,
} from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { keepIdleConnections } from '../helpers/keep-alive.js';
import { leaksOf, propertyRuns, recordingLogger } from '../helpers/reliability.js';

const apiKey = 'sk_live_5e8b2d7a9c1f3e4b6a8d0c2e';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A server that records each request's raw target and answers what `answer` says. */
async function startRecorder(
  answer: (request: Received) => [number, Record<string, string>, string],
) {
  const received: Received[] = [];
  const server = keepIdleConnections(
    createServer((req, res) => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
      received.push(request);
      req.resume();
      const [status, headers, body] = answer(request);
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, received, host: `127.0.0.1:${port}`, url: `http://127.0.0.1:${port}` };
}

async function stop(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

let mock: MockServer;
let service: Awaited<ReturnType<typeof startRecorder>>;
let elsewhere: Awaited<ReturnType<typeof startRecorder>>;
/** What the recording service answers next; 200 with an empty object by default. */
let next: (request: Received) => [number, Record<string, string>, string];

beforeAll(async () => {
  mock = await startMockServer({ apiKeys: [apiKey] });
  service = await startRecorder((request) => next(request));
  elsewhere = await startRecorder(() => [200, {}, '{}']);
});
afterEach(() => {
  mock.service.reset();
  service.received.length = 0;
  next = () => [200, {}, '{}'];
});
afterAll(async () => {
  await mock.close();
  await stop(service.server);
  await stop(elsewhere.server);
});

describe('client.request over HTTP, against the mock service', () => {
  it('creates and reads back a project with the key, retrying a 503 under one Idempotency-Key', async () => {
    const client = new Client({ apiKey, baseUrl: mock.baseUrl });
    mock.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } });
    const created = (await client.request({
      method: 'POST',
      path: '/v1/projects',
      body: { name: 'Wire', agentId: 'agent_1' },
    })) as { id: string };
    const read = await client.request({ method: 'GET', path: path`/v1/projects/${created.id}` });
    expect(read).toMatchObject({ id: created.id, name: 'Wire', agentId: 'agent_1' });

    const [first, retry, get] = mock.service.requestLog();
    expect([first?.method, retry?.method, get?.method]).toEqual(['POST', 'POST', 'GET']);
    expect(first?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(retry?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(get?.headers['idempotency-key']).toBeUndefined();
    expect(mock.service.projects()).toHaveLength(1);
  });

  it('fails with the error for the status the service answered', async () => {
    const client = new Client({ apiKey, baseUrl: mock.baseUrl, maxRetries: 0 });
    await expect(
      client.request({ method: 'GET', path: '/v1/projects/proj_missing' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('client.request over HTTP, the wire', () => {
  const clientFor = (options = {}) =>
    new Client({ apiKey, baseUrl: `${service.url}/api`, maxRetries: 0, ...options });

  it('sends the path and query exactly as built, below the base path', async () => {
    await clientFor().request({
      method: 'GET',
      path: path`/v1/projects/${'proj 1/..'}/members`,
      query: { role: ['owner', 'a b'], limit: 5 },
    });
    expect(service.received[0]?.url).toBe(
      '/api/v1/projects/proj%201%2F../members?role=owner&role=a+b&limit=5',
    );
  });

  it('keeps a key a server echoes back out of the error and the log', async () => {
    next = (request) => [
      400,
      { 'x-debug-authorization': String(request.headers.authorization) },
      JSON.stringify({ error: { message: `refused ${request.headers.authorization}` } }),
    ];
    const logger = recordingLogger();
    const error = await clientFor({ logger, logLevel: 'debug' })
      .request({ method: 'POST', path: '/v1/anything', body: { a: 1 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(service.received[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(leaksOf(error, apiKey)).toEqual([]);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.filter((line) => line.text.includes(apiKey))).toEqual([]);
  });

  it('never leaves the origin or the base path, however the path is written', async () => {
    // Pieces of every trick: other hosts, schemes, dot segments plain and encoded, separators
    // a URL parser rewrites, characters it drops or encodes.
    const piece = fc.constantFrom(
      '/',
      '/',
      'v1',
      'x',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2f',
      '%5c',
      '%',
      '2e',
      '\\',
      '?',
      '#',
      '@',
      ':',
      ' ',
      '\t',
      '\n',
      '\r',
      'é',
      '\uD800',
      'http:',
      'https://',
      '//',
      elsewhere.host,
      'localhost',
      '%00',
      ';',
      '~',
      '+',
    );
    // Whole segments a path may hold, so that many written paths are sent and not refused.
    const segment = fc.constantFrom(
      '/v1',
      '/x',
      '/a.b',
      '/%2e%2e%2f',
      '/@:~+;',
      '/%00',
      '/',
      '/...',
    );
    const writtenPaths = fc
      .array(fc.oneof({ arbitrary: segment, weight: 3 }, { arbitrary: piece, weight: 1 }), {
        maxLength: 8,
      })
      .map((pieces) => pieces.join(''));
    const client = clientFor();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(writtenPaths, async (written) => {
        service.received.length = 0;
        const outcome = await client.request({ method: 'GET', path: written }).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (outcome instanceof RequestValidationError) {
          expect(service.received).toEqual([]);
        } else {
          expect(outcome).toBeUndefined();
          // Sent, then exactly as written: no parser normalised it into another route.
          expect(service.received.map((request) => request.url)).toEqual([`/api${written}`]);
          sent++;
        }
        expect(elsewhere.received).toEqual([]);
      }),
      { numRuns: propertyRuns(200) },
    );
    // The property said something about paths that were sent, not only about refusals.
    expect(sent).toBeGreaterThan(10);
  }, 60_000);

  it('carries any value through the path tag as exactly one segment, or refuses it', async () => {
    const client = clientFor();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 12 }), async (value) => {
        service.received.length = 0;
        const outcome = await client
          .request({ method: 'GET', path: path`/v1/items/${value}/tail` })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        const refusable = value === '' || value === '.' || value === '..' || /\p{Cs}/u.test(value);
        if (refusable) {
          expect(outcome).toBeInstanceOf(RequestValidationError);
          expect(service.received).toEqual([]);
          return;
        }
        expect(outcome).toBeUndefined();
        const url = service.received[0]?.url ?? '';
        const segment = url.slice('/api/v1/items/'.length, -'/tail'.length);
        expect(url).toBe(`/api/v1/items/${segment}/tail`);
        expect(segment).not.toContain('/');
        expect(decodeURIComponent(segment)).toBe(value);
      }),
      { numRuns: propertyRuns(200) },
    );
  }, 60_000);
});
