/**
 * Redirects are never followed (Stripe's and httpx's default): a redirect to another origin would
 * carry the body, the custom headers and the Idempotency-Key there (fetch strips only
 * Authorization), and a 302 would turn `chat.send` into a GET whose answer passed for the agent's.
 * Proved over real sockets: a redirector on one port, the mock service (the Location) on another.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIError, Client, clientCredentials, RedirectError } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { keepIdleConnections } from '../helpers/keep-alive.js';
import { leaksOf } from '../helpers/reliability.js';

const apiKey = 'sk_live_9c1d7e3f5a2b4c6d8e0f1a2b';

/** Redirects every request to the same path on `target()`, recording what it was sent. */
function startRedirector(target: () => string, status: () => number) {
  const seen: { path: string; headers: IncomingHttpHeaders; method: string; body: string }[] = [];
  const server = keepIdleConnections(
    createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const path = req.url ?? '/';
        seen.push({ path, headers: req.headers, method: req.method ?? '', body });
        res.writeHead(status(), { location: `${target()}${path.slice('/api'.length)}` });
        res.end();
      });
    }),
  );
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

describe('a redirect from the service', () => {
  it.each(cases)(
    'ends %s after a %i with RedirectError, sending nothing to the Location',
    async (operation, status) => {
      redirectStatus = status;
      const client = new Client({
        apiKey,
        baseUrl: `${redirector.url}/api`,
        headers: { 'x-tenant': 'acme' },
      });

      const error = await operations[operation](client).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toBeInstanceOf(APIError);
      const redirect = error as RedirectError;
      expect(redirect.status).toBe(status);
      expect(redirect.location).toMatch(new RegExp(`^${mock.baseUrl}/v1/projects`));
      expect(redirect.message).toContain('set baseUrl to the final address');
      // Not retried (maxRetries is 2), and the Location never heard of the call.
      expect(redirector.seen).toHaveLength(1);
      expect(mock.service.requestLog()).toEqual([]);
      expect(leaksOf(error, apiKey)).toEqual([]);
    },
  );

  it('is refused within the origin too: the client is told to use the final address', async () => {
    // A redirector whose Location is on itself.
    const sameOrigin = await startRedirector(
      () => `${redirector.url}/api`,
      () => 301,
    );
    try {
      const client = new Client({ apiKey, baseUrl: `${sameOrigin.url}/api` });
      await expect(client.projects.get('proj_1')).rejects.toBeInstanceOf(RedirectError);
      expect(sameOrigin.seen).toHaveLength(1);
      expect(redirector.seen).toEqual([]);
    } finally {
      sameOrigin.server.closeAllConnections();
      await new Promise((resolve) => sameOrigin.server.close(resolve));
    }
  });
});

describe('a redirect from the token endpoint', () => {
  it.each(['client_secret_post', 'client_secret_basic'] as const)(
    'is not followed with %s: the secret goes nowhere else and no call is made',
    async (authMethod) => {
      redirectStatus = 307;
      const clientSecret = 'cs_live_5f0e1d2c3b4a59687766554433221100';
      const client = new Client({
        baseUrl: mock.baseUrl,
        apiKey: clientCredentials({
          tokenUrl: `${redirector.url}/api/oauth/token`,
          clientId: 'svc',
          clientSecret,
          authMethod,
        }),
      });

      const error = await client.projects.get('proj_1').catch((e: unknown) => e);

      expect(error).toBeInstanceOf(RedirectError);
      expect((error as RedirectError).location).toBe(`${mock.baseUrl}/oauth/token`);
      expect(redirector.seen).toHaveLength(1);
      // The token endpoint's Location and the service both heard nothing.
      expect(mock.service.requestLog()).toEqual([]);
      expect(leaksOf(error, clientSecret)).toEqual([]);
    },
  );
});
