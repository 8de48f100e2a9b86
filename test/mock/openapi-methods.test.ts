/**
 * docs/openapi.yaml and the mock agree on every method of every path: each path of the document
 * is sent every HTTP method (and OPTIONS both as a CORS preflight and not), over one keep-alive
 * connection to the running HTTP server, and each answer is checked against the document: a
 * documented status with its headers and body for a documented operation, 405 with the error body
 * for a method the path does not take.
 */
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { contractProblems, type Exchange } from '../helpers/openapi-contract.js';
import { exchangeOn, openSocket } from '../helpers/raw-http.js';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];

/** What each documented operation is sent, so that it can succeed. */
const BODIES: Record<string, { type: string; body: string }> = {
  '/v1/projects': {
    type: 'application/json',
    body: JSON.stringify({ name: 'Walk', agentId: 'agent_1' }),
  },
  '/v1/projects/{id}/chat': { type: 'application/json', body: JSON.stringify({ message: 'Hi' }) },
  '/oauth/token': {
    type: 'application/x-www-form-urlencoded',
    body: 'grant_type=client_credentials',
  },
};

let server: MockServer;
let socket: Socket;
let paths: string[];
beforeAll(async () => {
  server = await startMockServer({ apiKeys: ['sk_test'] });
  socket = await openSocket(server.url);
  const document = parse(
    await readFile(new URL('../../docs/openapi.yaml', import.meta.url), 'utf8'),
  ) as { paths: Record<string, unknown> };
  paths = Object.keys(document.paths);
});
afterAll(async () => {
  socket?.destroy();
  await server.close();
});

/** Sends one request on the shared connection, as the exchange the contract checks. */
async function send(
  method: string,
  template: string,
  path: string,
  headers: Record<string, string>,
): Promise<Exchange> {
  const { type, body } = (method === 'POST' && BODIES[template]) || { type: '', body: '' };
  const token = template === '/oauth/token';
  const head = [
    `${method} /api${path} HTTP/1.1`,
    'host: 127.0.0.1',
    `authorization: ${token ? `Basic ${btoa('walker:s3cret')}` : 'Bearer sk_test'}`,
    ...(type ? [`content-type: ${type}`] : []),
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const answer = await exchangeOn(socket, `${head.join('\r\n')}\r\n\r\n${body}`, method === 'HEAD');
  return { method, path, status: answer.status, headers: answer.headers, body: answer.body };
}

describe('docs/openapi.yaml and the mock', () => {
  it('agree on every method of every path', async () => {
    const created = await fetch(`${server.baseUrl}/v1/projects`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test', 'content-type': 'application/json' },
      body: BODIES['/v1/projects']?.body ?? '',
    });
    const { id } = (await created.json()) as { id: string };

    const exchanges: Exchange[] = [];
    for (const template of paths) {
      const path = template.replace('{id}', id);
      for (const method of METHODS) exchanges.push(await send(method, template, path, {}));
      exchanges.push(
        await send('OPTIONS', template, path, {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
        }),
      );
    }

    expect(await contractProblems(exchanges)).toEqual([]);
    // Every path and method was answered on the one connection, which is still open.
    expect(exchanges).toHaveLength(paths.length * (METHODS.length + 1));
    expect(socket.destroyed).toBe(false);
    const statuses = Object.fromEntries(
      exchanges.map(({ method, path, status }, index) => [
        `${method} ${path.replace(id, '{id}')}${index % (METHODS.length + 1) === METHODS.length ? ' (preflight)' : ''}`,
        status,
      ]),
    );
    expect(statuses).toMatchObject({
      'POST /v1/projects': 201,
      'GET /v1/projects/{id}': 200,
      'POST /v1/projects/{id}/chat': 200,
      'POST /oauth/token': 200,
      'OPTIONS /v1/projects': 405,
      'OPTIONS /v1/projects (preflight)': 204,
      'TRACE /v1/projects/{id}': 405,
      'HEAD /v1/projects/{id}': 405,
    });
  });
});
