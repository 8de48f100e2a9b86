import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  registerMockScenarios,
  SCENARIO_OPTIONS,
  TEST_API_KEY,
} from '../helpers/mock-scenarios.js';
import { contractProblems } from '../helpers/openapi-contract.js';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer(SCENARIO_OPTIONS);
});
afterAll(() => server.close());

/** Sends raw bytes, the way curl or a client in another language would, and reads the whole answer. */
function rawExchange(bytes: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const activeTimers = () =>
  process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('mock service over node:http', () => {
  registerMockScenarios({
    service: () => server.service,
    speaksCorsByHand: true,
    contractProblems,
  });

  it('listens on 127.0.0.1 with the base path /api', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrl).toBe(`${server.url}/api`);
    expect(server.service.baseUrl).toBe(server.baseUrl);
  });

  it('answers a raw HTTP/1.1 request like curl sends', async () => {
    const body = JSON.stringify({ name: 'Raw', agentId: 'agent_raw' });
    const answer = await rawExchange(
      [
        'POST /api/v1/projects HTTP/1.1',
        `Host: ${new URL(server.url).host}`,
        `Authorization: Bearer ${TEST_API_KEY}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );

    const [head = '', payload = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
    expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(head).toMatch(/\r\nx-request-id: req_\w+\r\n/i);
    // Chunked transfer: the JSON sits between the chunk size lines.
    expect(payload).toContain('"name":"Raw"');
    expect(server.service.projects()).toMatchObject([{ name: 'Raw', agentId: 'agent_raw' }]);
  });

  it('reads a path starting with // as a path, not as another host', async () => {
    // Resolved as a URL, `//127.0.0.1:PORT/api/...` would land on /api/v1/projects.
    const { host } = new URL(server.url);
    const answer = await rawExchange(
      `GET //${host}/api/v1/projects HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );

    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(server.service.requestLog()).toEqual([]);
  });

  it('keeps an idle connection a minute, so that fetch never reuses one as it closes', async () => {
    const response = await fetch(`${server.url}/elsewhere`);
    await response.body?.cancel();

    // fetch reuses a connection until shortly before this advertised timeout; Node's 5 s made a
    // loaded test run write requests into connections being closed (ECONNRESET).
    expect(response.headers.get('keep-alive')).toBe('timeout=60');
  });

  it('answers 404 with the error body outside the base path', async () => {
    const response = await fetch(`${server.url}/elsewhere`);

    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await response.json()).error.type).toBe('not_found_error');
    expect(server.service.requestLog()).toEqual([]);
  });

  it('clears the latency timer of a request whose client went away', async () => {
    const baseline = activeTimers();
    server.service.setLatency(60_000);
    const controller = new AbortController();
    const pending = fetch(`${server.baseUrl}/v1/projects`, { signal: controller.signal });
    const rejected = expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    // Other timers (the HTTP stack's own) come and go on a busy machine: wait for the count to
    // show the latency timer, rather than reading it once.
    await expect.poll(activeTimers, { interval: 1 }).toBe(baseline + 1);
    controller.abort();
    await rejected;

    await expect.poll(activeTimers, { interval: 1 }).toBeLessThanOrEqual(baseline);
  });

  it('drops the socket on a network-error fault', async () => {
    server.service.enqueue({ kind: 'network-error' });

    const outcome = await new Promise<string>((resolve) => {
      const request = httpRequest(`${server.baseUrl}/v1/projects`, { method: 'POST' });
      request.on('response', () => resolve('answered'));
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      request.end('{}');
    });
    expect(outcome).toBe('ECONNRESET');
  });
});

describe('startMockServer', () => {
  it('honours port, host and basePath', async () => {
    const probe = await startMockServer();
    const { port } = new URL(probe.url);
    await probe.close();

    const custom = await startMockServer({
      port: Number(port),
      host: 'localhost',
      basePath: 'svc/',
    });
    try {
      expect(custom.url).toMatch(new RegExp(`^http://(127\\.0\\.0\\.1|\\[::1\\]):${port}$`));
      expect(custom.baseUrl).toBe(`${custom.url}/svc`);
      const response = await fetch(`${custom.baseUrl}/v1/projects/proj_1`, {
        headers: { authorization: 'Bearer any-key' },
      });
      expect(response.status).toBe(404);
      expect(custom.service.requestLog()).toHaveLength(1);
    } finally {
      await custom.close();
    }
  });

  it('close() returns at once with a hanging request open', async () => {
    const hanging = await startMockServer();
    hanging.service.enqueue({ kind: 'hang' });
    const pending = fetch(`${hanging.baseUrl}/v1/projects`).catch((error: unknown) => error);
    await expect.poll(() => hanging.service.requestLog().length).toBe(1);

    // Waiting for the hanging request would take forever: any finite time, a loaded machine's
    // included, is "at once".
    const started = performance.now();
    await hanging.close();
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(await pending).toBeInstanceOf(TypeError);
  });

  it('close() can be called twice', async () => {
    const twice = await startMockServer();
    await twice.close();
    await expect(twice.close()).resolves.toBeUndefined();
  });

  it('rejects with one clear line when the port is taken', async () => {
    const first = await startMockServer();
    const { port } = new URL(first.url);
    try {
      const error = await startMockServer({ port: Number(port) }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `Cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`,
      );
      expect(error).toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await first.close();
    }
  });

  it('refuses a port outside 0–65535 before listening', async () => {
    await expect(startMockServer({ port: 70_000 })).rejects.toThrow(ConfigurationError);
    await expect(startMockServer({ port: 1.5 })).rejects.toThrow(/integer from 0 to 65535/);
  });

  it('closes the port again when the service options are invalid', async () => {
    const probe = await startMockServer();
    const port = Number(new URL(probe.url).port);
    await probe.close();

    await expect(startMockServer({ port, latencyMs: -1 })).rejects.toThrow(ConfigurationError);
    const again = await startMockServer({ port });
    await again.close();
  });

  it('answers its own 404 outside the base path readably for another origin', async () => {
    const response = await fetch(`${server.url}/elsewhere`, {
      headers: { origin: 'http://localhost:5173' },
    });

    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((await response.json()).error.message).toContain(
      `the service is under ${server.baseUrl}`,
    );
  });
});
