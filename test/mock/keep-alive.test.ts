/**
 * The HTTP server keeps a connection it answered `Connection: keep-alive`, whatever odd request it
 * answered on it: the client's next request on the same socket is served. And a method fetch cannot
 * carry (TRACE) still gets the service's 405 with `Allow` on a path the service knows.
 */
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { closedBy, exchangeOn, openSocket, streamBody } from '../helpers/raw-http.js';

let server: MockServer;
let socket: Socket | undefined;
beforeAll(async () => {
  server = await startMockServer({ apiKeys: ['sk_test'] });
});
afterEach(() => socket?.destroy());
afterAll(() => server.close());

const CREATE_BODY = JSON.stringify({ name: 'Next', agentId: 'agent_1' });

/** A create on the same connection: what the client sends next. */
const NORMAL_REQUEST = [
  'POST /api/v1/projects HTTP/1.1',
  'host: 127.0.0.1',
  'authorization: Bearer sk_test',
  'content-type: application/json',
  `content-length: ${CREATE_BODY.length}`,
  '',
  CREATE_BODY,
].join('\r\n');

const ODD_REQUESTS = [
  {
    name: 'a TRACE on a known path',
    request: 'TRACE /api/v1/projects HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n',
    status: 405,
  },
  {
    name: 'a TRACE with a body',
    request: 'TRACE /api/v1/projects HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 5\r\n\r\nhello',
    status: 405,
  },
  {
    name: 'a GET with a body',
    request:
      'GET /api/v1/projects/proj_missing HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer sk_test\r\ncontent-length: 5\r\n\r\nhello',
    status: 404,
  },
  {
    name: 'a POST outside /api',
    request: 'POST /elsewhere HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 5\r\n\r\nhello',
    status: 404,
  },
  {
    name: 'a chunked POST outside /api',
    request:
      'POST /elsewhere HTTP/1.1\r\nhost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
    status: 404,
  },
  {
    name: 'a DELETE with a body on a known path',
    request:
      'DELETE /api/v1/projects HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 5\r\n\r\nhello',
    status: 405,
  },
];

describe('a keep-alive connection', () => {
  it.each(ODD_REQUESTS)('serves the next request after $name', async ({ request, status }) => {
    socket = await openSocket(server.url);

    const odd = await exchangeOn(socket, request);
    expect(odd.status).toBe(status);
    expect(odd.headers.connection).toBe('keep-alive');

    const next = await exchangeOn(socket, NORMAL_REQUEST);
    expect(next.status).toBe(201);
    expect(JSON.parse(next.body)).toMatchObject({ name: 'Next' });
  });

  it('is closed after a refused body too large to read for nothing', async () => {
    socket = await openSocket(server.url);
    const answer = closedBy(socket);
    socket.write(
      'POST /api/v1/projects HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 10000000\r\n\r\nstart',
    );

    expect((await answer).status).toBe(413);
  });
});

describe('an unread body past 64 KiB', () => {
  it('closes the connection after the answer rather than read on for nothing', async () => {
    socket = await openSocket(server.url);
    const answer = closedBy(socket);
    socket.write(
      'POST /elsewhere HTTP/1.1\r\nhost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n\r\n',
    );
    const written = await streamBody(socket, Number.POSITIVE_INFINITY, true);

    expect((await answer).status).toBe(404);
    // Read no further than the limit, and the kernels' buffers: never the endless rest.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('TRACE', () => {
  it('answers 405 with Allow and the error body on a known path, 404 elsewhere', async () => {
    socket = await openSocket(server.url);

    const known = await exchangeOn(
      socket,
      'TRACE /api/v1/projects/proj_1 HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n',
    );
    expect(known.status).toBe(405);
    expect(known.headers.allow).toBe('GET');
    expect(known.headers['x-request-id']).toMatch(/^req_/);
    expect(JSON.parse(known.body).error).toMatchObject({
      type: 'method_not_allowed_error',
      message: 'TRACE is not allowed on /api/v1/projects/proj_1; use GET',
      requestId: known.headers['x-request-id'],
    });

    const unknown = await exchangeOn(socket, 'TRACE /api/v2 HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.type).toBe('not_found_error');
  });
});
