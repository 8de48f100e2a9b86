/**
 * The bin's node:http listener writes an answer's every `Set-Cookie` (toNodeHandler alone keeps
 * the last), and the rest of its headers as they were, on a real server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpHandler } from '../../src/mcp/http-handler.js';
import { nodeListener } from '../../src/mcp/node-listener.js';
import { keepIdleConnections } from '../helpers/keep-alive.js';

/** What the handler answers each path with: the front's answers set several cookies. */
function answer(pathname: string): Response {
  const headers = new Headers({ 'cache-control': 'no-store', location: '/interaction/abc' });
  if (pathname === '/two-cookies') {
    headers.append('set-cookie', '_interaction=abc; Path=/interaction/abc; HttpOnly');
    headers.append('set-cookie', '_interaction.sig=xyz; Path=/interaction/abc; HttpOnly');
  }
  if (pathname === '/one-cookie') headers.append('set-cookie', '_session=s1; Path=/; HttpOnly');
  return new Response('moved', { status: 303, headers });
}

const handler: McpHttpHandler = {
  fetch: async (request) => answer(new URL(request.url).pathname),
  close: async () => {},
};

let server: Server;
let origin: string;
beforeAll(async () => {
  server = keepIdleConnections(
    createServer(nodeListener(handler, (error) => console.error(error))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('nodeListener', () => {
  it.each([
    ['/two-cookies', ['_interaction=abc', '_interaction.sig=xyz']],
    ['/one-cookie', ['_session=s1']],
    ['/none', []],
  ])('answers %s with each of its cookies and its other headers', async (path, cookies) => {
    const response = await fetch(`${origin}${path}`, { redirect: 'manual' });

    expect(response.status).toBe(303);
    expect(await response.text()).toBe('moved');
    expect(response.headers.getSetCookie().map((cookie) => cookie.split(';')[0])).toEqual(cookies);
    expect(response.headers.get('location')).toBe('/interaction/abc');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
