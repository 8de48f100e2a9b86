/**
 * The packed package behind a company's network on each runtime of the matrix, where behaviour
 * differs between them: Node's own `NODE_USE_ENV_PROXY=1` (22.21+ and every 24 and 26 release send
 * every request, OAuth's included, through the proxy the variables name; 22.12 ignores them), a
 * dispatcher of the undici major each Node.js accepts (7 on 22 and 24, 8 on 26), a private CA by
 * `NODE_EXTRA_CA_CERTS`, and Bun and Deno, which read the proxy variables themselves; and what no
 * retry can mend, met once on each: a certificate problem, the proxy refusing its credentials, a
 * dispatcher of undici 8 where the fetch is built on 6 or 7. Real tinyproxy, a CA made by
 * openssl, a real authorization server.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { createPrivateCa, type PrivateCa } from '../helpers/certificates.js';
import { consumerPath, useMockServer } from '../helpers/package-consumer.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';
import { startTlsService, type TlsService } from '../helpers/tls-service.js';

const run = promisify(execFile);
const repo = new URL('../..', import.meta.url).pathname;
const { node, bun, deno } = inject('runtimes');
const mock = useMockServer();

let proxy: Tinyproxy;
let issuer: AuthorizationServer;
let ca: PrivateCa;
let tls: TlsService;

beforeAll(async () => {
  ca = await createPrivateCa();
  [proxy, issuer, tls] = await Promise.all([
    startTinyproxy(),
    startAuthorizationServer(),
    startTlsService(ca),
  ]);
});
afterAll(async () => {
  await Promise.all([proxy?.close(), issuer?.close(), tls?.close()]);
  await ca?.remove();
});

/** Runs consumer/network.mjs with only these variables (and PATH, HOME). */
async function runNetwork(
  bin: string,
  env: Record<string, string>,
  flags: readonly string[] = [],
): Promise<{ outcome: string; name?: string; message?: string; attempts?: number }> {
  const { stdout } = await run(bin, [...flags, 'network.mjs'], {
    cwd: consumerPath(),
    timeout: 90_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
}

const hostOf = (url: string) => new URL(url).host;
const through = (host: string, from: number) =>
  proxy
    .requests()
    .slice(from)
    .filter((request) => request.includes(host));

const oauthEnv = () => ({
  AGENTCHAT_BASE_URL: mock.server.baseUrl,
  AGENTCHAT_ISSUER: issuer.issuer,
  AGENTCHAT_CLIENT_ID: issuer.secretClient.clientId,
  AGENTCHAT_CLIENT_SECRET: issuer.secretClient.clientSecret,
  AGENTCHAT_RESOURCE: issuer.resource,
});

/**
 * Node.js releases whose `fetch` reads the proxy variables under NODE_USE_ENV_PROXY=1: 22.21+,
 * and the 24 and 26 lines from their first release (measured: 24.0.0 does).
 */
function readsEnvProxy(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 24 || (major === 22 && minor >= 21);
}

/** An undici of the repo's: `undici` is 8, `undici7` 7. */
const undiciEntry = (name: 'undici' | 'undici7') =>
  pathToFileURL(join(repo, 'node_modules', name, 'index.js')).href;

/** The undici whose dispatcher each Node.js major's fetch accepts. */
const undiciFor = (version: string) =>
  undiciEntry(version.startsWith('26.') ? 'undici' : 'undici7');

/**
 * Node.js releases whose fetch cannot drive undici 8's dispatchers (built on undici 6 or 7) and
 * that can load undici 8 at all (22.12 lacks the zstd it needs, and fails at its import).
 */
const drivesOnlyOlderUndici = (version: string) =>
  !version.startsWith('26.') && version !== '22.12.0';

const guide = 'https://github.com/agentchat/agentchat-js/blob/main/docs/networks.md';

describe.each(node)('Node $version', ({ version, bin }) => {
  it(`${readsEnvProxy(version) ? 'sends' : 'does not send'} every request through the proxy with NODE_USE_ENV_PROXY=1`, async () => {
    const from = proxy.requests().length;
    const outcome = await runNetwork(bin, {
      ...oauthEnv(),
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: proxy.url,
    });
    expect(outcome).toEqual({ outcome: 'answered' });
    if (readsEnvProxy(version)) {
      await expect.poll(() => through(hostOf(mock.server.url), from)).toHaveLength(1);
      // Discovery's document and the token request.
      await expect
        .poll(() => through(hostOf(issuer.issuer), from).length)
        .toBeGreaterThanOrEqual(2);
    } else {
      expect(proxy.requests().slice(from)).toEqual([]);
    }
  });

  it('goes through the proxy with a dispatcher of the undici its fetch accepts', async () => {
    const from = proxy.requests().length;
    const outcome = await runNetwork(bin, {
      ...oauthEnv(),
      UNDICI_ENTRY: undiciFor(version),
      PROXY_URL: proxy.url,
    });
    expect(outcome).toEqual({ outcome: 'answered' });
    await expect.poll(() => through(hostOf(mock.server.url), from)).toHaveLength(1);
    await expect.poll(() => through(hostOf(issuer.issuer), from).length).toBeGreaterThanOrEqual(2);
  });

  it('trusts a private CA given by NODE_EXTRA_CA_CERTS, and names the problem without it', async () => {
    const env = { AGENTCHAT_BASE_URL: tls.baseUrl, AGENTCHAT_API_KEY: 'sk_network' };
    expect(await runNetwork(bin, { ...env, NODE_EXTRA_CA_CERTS: ca.caCertPath })).toEqual({
      outcome: 'answered',
      name: 'Behind TLS',
    });
    const before = tls.connections();
    const refused = await runNetwork(bin, env);
    expect(refused.outcome).toBe('APIConnectionError');
    expect(refused.message).toMatch(
      /\(TLS: UNABLE_TO_VERIFY_LEAF_SIGNATURE, .*networks\.md\) after 1 attempt$/,
    );
    // No retry can mend it: one attempt, one connection at the server.
    expect(tls.connections() - before).toBe(1);
  });

  it.each([
    { refusal: 'no credentials (407)', url: () => proxy.anonymousUrl, status: 407 },
    {
      refusal: 'wrong credentials (401 to CONNECT)',
      url: () => proxy.url.replace(':proxy-pass@', ':wrong@'),
      status: 401,
    },
  ])(
    'names a proxy refusing $refusal, after one attempt counted at the proxy',
    async ({ url, status }) => {
      const from = proxy.requests().length;
      const refused = await runNetwork(bin, {
        AGENTCHAT_BASE_URL: mock.server.baseUrl,
        AGENTCHAT_API_KEY: 'sk_network',
        UNDICI_ENTRY: undiciFor(version),
        PROXY_URL: url(),
        PROXY_TUNNEL: '1',
      });
      expect(refused.outcome).toBe('APIConnectionError');
      expect(refused.message).toContain(`(the proxy refused its credentials (${status}): `);
      expect(refused.message).toContain(`${guide}) after 1 attempt`);
      await expect.poll(() => through(hostOf(mock.server.url), from)).toHaveLength(1);
      expect(proxy.requests().slice(from)).toHaveLength(1);
    },
  );
});

describe.each(node.filter(({ version }) => drivesOnlyOlderUndici(version)))(
  'Node $version, given a dispatcher of undici 8',
  ({ version, bin }) => {
    it('ends the first request with a ConfigurationError naming undici 7, nothing sent', async () => {
      const from = proxy.requests().length;
      const refused = await runNetwork(bin, {
        AGENTCHAT_BASE_URL: mock.server.baseUrl,
        AGENTCHAT_API_KEY: 'sk_network',
        UNDICI_ENTRY: undiciEntry('undici'),
        PROXY_URL: proxy.url,
        COUNT_ATTEMPTS: '1',
      });
      expect(refused).toMatchObject({ outcome: 'ConfigurationError', attempts: 1 });
      expect(refused.message).toContain(
        `fetchOptions.dispatcher comes from an undici this fetch cannot drive (invalid onRequestStart method). Node.js ${version} (its fetch is undici `,
      );
      expect(refused.message).toContain(`npm install undici@7`);
      expect(refused.message).toContain(guide);
      expect(proxy.requests().slice(from)).toEqual([]);
    });
  },
);

describe.each([
  { name: `Bun ${bun.version}`, bin: bun.bin, flags: [] },
  {
    name: `Deno ${deno.version}`,
    bin: deno.bin,
    flags: ['run', '--no-prompt', '--allow-net=127.0.0.1', '--allow-env', '--allow-read'],
  },
])('$name', ({ bin, flags }) => {
  it('goes through the proxy its own fetchOptions name', async () => {
    const from = proxy.requests().length;
    const outcome = await runNetwork(bin, { ...oauthEnv(), PROXY_URL: proxy.url }, flags);
    expect(outcome).toEqual({ outcome: 'answered' });
    await expect.poll(() => through(hostOf(mock.server.url), from)).toHaveLength(1);
    await expect.poll(() => through(hostOf(issuer.issuer), from).length).toBeGreaterThanOrEqual(2);
  });

  it('reads HTTP_PROXY itself: every request goes through it', async () => {
    const from = proxy.requests().length;
    const outcome = await runNetwork(bin, { ...oauthEnv(), HTTP_PROXY: proxy.url }, flags);
    expect(outcome).toEqual({ outcome: 'answered' });
    await expect.poll(() => through(hostOf(mock.server.url), from)).toHaveLength(1);
    await expect.poll(() => through(hostOf(issuer.issuer), from).length).toBeGreaterThanOrEqual(2);
  });
});
