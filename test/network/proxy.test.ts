/**
 * The SDK behind a company's proxy, for real: Debian's tinyproxy with basic authentication on a
 * loopback port, the mock service over HTTP behind it, and a real authorization server
 * (oidc-provider) for the token endpoint and issuer discovery. Each path a user may take: undici's
 * own `fetch` with a `ProxyAgent` of the same undici, the platform's `fetch` given a dispatcher of
 * a compatible undici (7 on Node 22), and `EnvHttpProxyAgent` with `NO_PROXY`; and what no retry
 * can mend, met once: the proxy refusing its credentials, a dispatcher of an undici the platform's
 * fetch cannot drive (undici 8 on Node 22). Node's own `NODE_USE_ENV_PROXY` is in
 * environment.test.ts; the same failures on every Node.js line in test/package/networks.test.ts.
 */
import { EnvHttpProxyAgent, ProxyAgent, fetch as undiciFetch } from 'undici';
import { ProxyAgent as PlatformProxyAgent } from 'undici7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  Client,
  ConfigurationError,
  clientCredentials,
} from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';

let proxy: Tinyproxy;
let mock: MockServer;
let issuer: AuthorizationServer;

beforeAll(async () => {
  [proxy, mock, issuer] = await Promise.all([
    startTinyproxy(),
    startMockServer(),
    startAuthorizationServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([proxy?.close(), mock?.close(), issuer?.close()]);
});

/** What the proxy forwarded to `origin` since `from` (an index into its requests). */
const forwardedTo = (origin: string, from: number) =>
  proxy
    .requests()
    .slice(from)
    .filter((request) => request.includes(new URL(origin).host));

/** The proxy's URL with a password it refuses. */
const wrongCredentials = () => proxy.url.replace(':proxy-pass@', ':not-the-password@');

/** Creates a project and reads it back: two calls, a POST and a GET. */
async function roundTrip(client: Client): Promise<string> {
  const created = await client.projects.create({ name: 'Behind the proxy', agentId: 'agent_1' });
  return (await client.projects.get(created.id)).name;
}

describe("undici's own fetch", () => {
  it('goes through a ProxyAgent of the same undici, both calls', async () => {
    const from = proxy.requests().length;
    const logged = mock.service.requestLog().length;
    const dispatcher = new ProxyAgent(proxy.url);
    const client = new Client({
      apiKey: 'sk_proxy',
      baseUrl: mock.baseUrl,
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    expect(await roundTrip(client)).toBe('Behind the proxy');
    await expect.poll(() => forwardedTo(mock.url, from)).toHaveLength(2);
    expect(
      mock.service
        .requestLog()
        .slice(logged)
        .map((entry) => entry.method),
    ).toEqual(['POST', 'GET']);
    await dispatcher.close();
  });
});

describe("the platform's fetch", () => {
  it('goes through a dispatcher of the undici it is built on, with no fetch option', async () => {
    const from = proxy.requests().length;
    const dispatcher = new PlatformProxyAgent(proxy.url);
    const client = new Client({
      apiKey: 'sk_proxy',
      baseUrl: mock.baseUrl,
      fetchOptions: { dispatcher },
    });
    expect(await roundTrip(client)).toBe('Behind the proxy');
    await expect.poll(() => forwardedTo(mock.url, from)).toHaveLength(2);
    await dispatcher.close();
  });

  it('takes a dispatcher for one call over none on the client', async () => {
    const from = proxy.requests().length;
    const dispatcher = new PlatformProxyAgent(proxy.url);
    const client = new Client({ apiKey: 'sk_proxy', baseUrl: mock.baseUrl });
    const created = await client.projects.create({ name: 'Direct', agentId: 'agent_1' });
    await client.projects.get(created.id, { fetchOptions: { dispatcher } });
    await expect
      .poll(() => forwardedTo(mock.url, from))
      .toEqual([expect.stringMatching(/^(GET|CONNECT) /)]);
    await dispatcher.close();
  });

  it.each([
    { refusal: 'no credentials (407)', url: () => proxy.anonymousUrl, status: 407 },
    { refusal: 'wrong credentials (401 to CONNECT)', url: () => wrongCredentials(), status: 401 },
  ])(
    'fails at once when the proxy refuses $refusal, naming it, nothing delivered',
    async ({ url, status }) => {
      const from = proxy.requests().length;
      const logged = mock.service.requestLog().length;
      const dispatcher = new PlatformProxyAgent(url());
      const client = new Client({
        apiKey: 'sk_proxy',
        baseUrl: mock.baseUrl,
        fetchOptions: { dispatcher },
      });
      const error = await client.projects.get('proj_1').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toContain(
        `(the proxy refused its credentials (${status}): put the proxy's user and password in its URL; ` +
          'for a proxy, a private CA or a client certificate see https://github.com/agentchat/agentchat-js/blob/main/docs/networks.md) after 1 attempt',
      );
      // One attempt, counted at the proxy; none reached the service.
      await expect.poll(() => forwardedTo(mock.url, from)).toHaveLength(1);
      expect(proxy.requests().slice(from)).toHaveLength(1);
      expect(mock.service.requestLog()).toHaveLength(logged);
      await dispatcher.close();
    },
  );

  it('refuses a dispatcher of an undici it cannot drive: ConfigurationError, one attempt, nothing sent', async () => {
    const from = proxy.requests().length;
    const dispatcher = new ProxyAgent(proxy.url);
    let attempts = 0;
    const client = new Client({
      apiKey: 'sk_proxy',
      baseUrl: mock.baseUrl,
      fetchOptions: { dispatcher },
      middleware: [
        (request, next) => {
          attempts++;
          return next(request);
        },
      ],
    });
    const error = await client.projects.get('proj_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    const undici = process.versions.undici ?? '';
    const fitting = Math.max(Number(undici.split('.')[0]), 7);
    expect((error as Error).message).toBe(
      'GET /v1/projects/proj_1: fetchOptions.dispatcher comes from an undici this fetch cannot drive ' +
        `(invalid onRequestStart method). Node.js ${process.versions.node} (its fetch is undici ${undici}) ` +
        `takes undici ${fitting}'s: npm install undici@${fitting}, or pass that undici's own fetch as ` +
        'the fetch option; see https://github.com/agentchat/agentchat-js/blob/main/docs/networks.md',
    );
    expect(attempts).toBe(1);
    expect(proxy.requests().slice(from)).toEqual([]);
    await dispatcher.close();
  });
});

describe('OAuth behind the proxy', () => {
  it("sends discovery and the token request through the provider's fetchOptions", async () => {
    const from = proxy.requests().length;
    const dispatcher = new PlatformProxyAgent(proxy.url);
    const apiKey = clientCredentials({
      issuer: issuer.issuer,
      ...issuer.secretClient,
      resource: issuer.resource,
      fetchOptions: { dispatcher },
    });
    const client = new Client({ apiKey, baseUrl: mock.baseUrl, fetchOptions: { dispatcher } });
    expect(await roundTrip(client)).toBe('Behind the proxy');
    // Discovery's document and the token request.
    await expect.poll(() => forwardedTo(issuer.issuer, from).length).toBeGreaterThanOrEqual(2);
    expect(issuer.paths).toContain('/.well-known/oauth-authorization-server');
    expect(issuer.requests.at(-1)?.granted).toBe(true);
    await expect.poll(() => forwardedTo(mock.url, from)).toHaveLength(2);
    await dispatcher.close();
  });
});

describe('EnvHttpProxyAgent', () => {
  it('sends the service through the proxy and bypasses it for a NO_PROXY host', async () => {
    const from = proxy.requests().length;
    const issuerHost = new URL(issuer.issuer).host;
    // undici's EnvHttpProxyAgent reads HTTP_PROXY and NO_PROXY; given here as options, as the
    // environment would give them, so that no other test in the process sees them.
    const dispatcher = new EnvHttpProxyAgent({ httpProxy: proxy.url, noProxy: issuerHost });
    const apiKey = clientCredentials({
      issuer: issuer.issuer,
      ...issuer.secretClient,
      resource: issuer.resource,
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    const granted = issuer.requests.length;
    const client = new Client({
      apiKey,
      baseUrl: mock.baseUrl,
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    expect(await roundTrip(client)).toBe('Behind the proxy');
    await expect.poll(() => forwardedTo(mock.url, from)).toHaveLength(2);
    expect(forwardedTo(issuer.issuer, from)).toEqual([]);
    expect(issuer.requests.length).toBeGreaterThan(granted);
    await dispatcher.close();
  });
});
