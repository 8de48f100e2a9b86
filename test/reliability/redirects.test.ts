/**
 * Redirects: the client follows them with fetch's own rules, which drop the Authorization header
 * when the redirect leaves the origin (Fetch standard, "HTTP-redirect fetch"; undici does the
 * same). Proved over real sockets: a redirector on one port, the mock service on another.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIError, AuthenticationError, Client } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { leaksOf } from '../helpers/reliability.js';

const apiKey = 'sk_live_9c1d7e3f5a2b4c6d8e0f1a2b';

/** A project as the service would answer it, for the same-origin control. */
const project = {
  id: 'proj_same',
  name: 'Same',
  agentId: 'agent_1',
  status: 'active',
  metadata: {},
  createdAt: '2026-01-01T00:00:00Z',
};

/**
 * Redirects `/api/...` to the mock service on another port (another origin) and `/same/...` to
 * `/final/...` on itself, where it answers like the service. Records the headers of each request.
 */
function startRedirector(target: () => string, status: () => number) {
  const seen: { path: string; headers: IncomingHttpHeaders; method: string }[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ path, headers: req.headers, method: req.method ?? '' });
    req.resume();
    if (path.startsWith('/final/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(path.endsWith('/chat') ? { message: 'ok', suggestions: [] } : project),
      );
      return;
    }
    const location = path.startsWith('/same/')
      ? `/final/${path.slice('/same/'.length)}`
      : `${target()}${path.slice('/api'.length)}`;
    res.writeHead(status(), { location });
    res.end();
  });
  return new Promise<{ server: Server; url: string; seen: typeof seen }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, seen });
    });
  });
}

let mock: MockServer;
let redirector: Awaited<ReturnType<typeof startRedirector>>;
let redirectStatus = 307;

beforeAll(async () => {
  mock = await startMockServer();
  redirector = await startRedirector(
    () => mock.baseUrl,
    () => redirectStatus,
  );
});
afterEach(() => {
  mock.service.reset();
  redirector.seen.length = 0;
});
afterAll(async () => {
  await mock.close();
  redirector.server.closeAllConnections();
  await new Promise((resolve) => redirector.server.close(resolve));
});

const operations = {
  'projects.create': (client: Client) => client.projects.create({ name: 'Moved', agentId: 'a_1' }),
  'projects.get': (client: Client) => client.projects.get('proj_moved'),
  'chat.send': (client: Client) => client.chat.send({ projectId: 'proj_moved', message: 'hi' }),
};
const cases = Object.keys(operations).flatMap((name) =>
  [301, 302, 303, 307, 308].map((status) => [name as keyof typeof operations, status] as const),
);

describe('a redirect to another origin', () => {
  it.each(cases)('%s after a %i arrives without the bearer key', async (operation, status) => {
    redirectStatus = status;
    const client = new Client({ apiKey, baseUrl: `${redirector.url}/api`, maxRetries: 0 });

    const error = await operations[operation](client).catch((e: unknown) => e);

    // The first hop carried the key; the hop to the other origin did not.
    expect(redirector.seen.map((r) => r.headers.authorization)).toEqual([`Bearer ${apiKey}`]);
    expect(mock.service.requests).toHaveLength(1);
    expect(mock.service.requests[0]?.headers.authorization).toBeUndefined();
    expect(leaksOf(error, apiKey)).toEqual([]);
    // 307 and 308 keep the method, so the service refuses the keyless request with 401; after a
    // 301, 302 or 303 fetch turns a POST into a GET, which that route answers with 405.
    const methodKept = status >= 307 || operation === 'projects.get';
    expect(error).toBeInstanceOf(methodKept ? AuthenticationError : APIError);
    expect((error as APIError).status).toBe(methodKept ? 401 : 405);
  });
});

describe('a redirect within the origin', () => {
  it.each([301, 307, 308])('keeps the bearer key after a %i (the control case)', async (status) => {
    redirectStatus = status;
    const client = new Client({ apiKey, baseUrl: `${redirector.url}/same`, maxRetries: 0 });

    await expect(client.projects.get('proj_same')).resolves.toMatchObject({ id: 'proj_same' });

    expect(redirector.seen.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/same/v1/projects/proj_same', `Bearer ${apiKey}`],
      ['/final/v1/projects/proj_same', `Bearer ${apiKey}`],
    ]);
  });
});
