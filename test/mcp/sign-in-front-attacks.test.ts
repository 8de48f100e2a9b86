/**
 * The sign-in front attacked at its registration and consent, over real sockets: redirect URIs a
 * code must never be sent to, refused at registration; the registration limit on every path
 * spelling the engine's router answers, per caller address (callers come from 127.0.0.1, .2 and
 * .3, all this machine), across two replicas sharing a real Redis, and behind a trusted proxy;
 * and a person's consent asked again for another redirect URI, host or scope (Chromium).
 */

import type { Server } from 'node:http';
import type { Browser, BrowserContext } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_BURST } from '../../src/mcp/front/engine.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import {
  type FrontReplicas,
  postFrom as post,
  registrationsFrom,
  type SignInScene,
  startFrontReplicas,
  startSignInScene,
} from '../helpers/sign-in-front.js';
import { registerPublicClient, signInAsPerson } from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_attacks_81b4';

let redis: RedisServer;
let scene: SignInScene;
let browser: Browser;
let redirect: { url: string; server: Server };
/** One front with the memory store, whose limits each test meets from its own address. */
let single: FrontReplicas;
/** Two replicas sharing Redis. */
let replicated: FrontReplicas;
/** A front behind a proxy on 127.0.0.0/8 that it trusts. */
let proxied: FrontReplicas;

beforeAll(async () => {
  redis = await startRedisServer();
  scene = await startSignInScene(SERVER_KEY);
  ({ browser, redirect } = scene);
  [single, replicated, proxied] = await Promise.all([
    startFrontReplicas(SERVER_KEY, 1),
    startFrontReplicas(SERVER_KEY, 2, { store: redis.url }),
    startFrontReplicas(SERVER_KEY, 1, { trustedProxies: ['127.0.0.0/8'] }),
  ]);
}, 60_000);
afterAll(async () => {
  await scene?.close();
  await Promise.all([single, replicated, proxied].map((front) => front?.close()));
  await redis?.kill();
});

/** A registration of a public client with `redirectUris`, as metadata gives them. */
function clientMetadata(redirectUris: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    client_name: 'Attacking Host',
    redirect_uris: redirectUris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
}

/** Registrations from one caller to each of `paths`: see {@link registrationsFrom}. */
function registrations(
  origin: string,
  paths: readonly string[],
  options: { localAddress?: string; headers?: (index: number) => Record<string, string> } = {},
) {
  return registrationsFrom(origin, paths, clientMetadata([redirect.url]), options);
}

/** `/register`, `times` times. */
const plain = (times: number) => Array.from({ length: times }, () => '/register');

describe('redirect URIs at registration', { timeout: 60_000 }, () => {
  it.each([
    ['plain http off loopback', 'http://evil.example/cb'],
    ['userinfo', 'https://trusted.example@evil.example/cb'],
    ['userinfo with a password', 'https://user:pass@host.example/cb'],
    ['a fragment', 'https://host.example/cb#frag'],
    ['an empty fragment', 'https://host.example/cb#'],
    ['javascript:', 'javascript:alert(document.domain)//'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['file:', 'file:///etc/passwd'],
    ['not a URL', 'not a url'],
  ])('refuses one with %s: invalid_redirect_uri (RFC 7591)', async (_name, uri) => {
    // From an address of each kind's own, so that the registration limit never answers first.
    for (const [applicationType, localAddress] of [
      ['web', '127.0.0.5'],
      ['native', '127.0.0.8'],
    ] as const) {
      const { status, body } = await post(
        single.origin,
        '/register',
        clientMetadata([redirect.url, uri], { application_type: applicationType }),
        { localAddress },
      );
      expect(status).toBe(400);
      expect(JSON.parse(body)).toMatchObject({ error: 'invalid_redirect_uri' });
    }
  });

  it.each([
    ['https', 'https://host.example/callback', 'web'],
    ['http on 127.0.0.1', 'http://127.0.0.1:33418/callback', 'web'],
    ['http on localhost', 'http://localhost:6274/oauth/callback', 'web'],
    ['http on [::1]', 'http://[::1]:8080/cb', 'native'],
    ['a native private-use scheme', 'com.example.app:/oauth2redirect', 'native'],
    [
      'a native scheme without a dot',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'native',
    ],
  ])('registers one with %s', async (_name, uri, applicationType) => {
    const { status } = await post(
      single.origin,
      '/register',
      clientMetadata([uri], { application_type: applicationType }),
      { localAddress: '127.0.0.6' },
    );
    expect(status).toBe(201);
  });
});

describe('the registration limit', { timeout: 60_000 }, () => {
  it('holds on every path spelling the engine answers', async () => {
    // The engine's router folds case and takes one trailing slash; URL parsing turns dot
    // segments (raw or percent-encoded) into that slash before the front sees the path.
    const spellings = [
      '/register/',
      '/register/.',
      '/register/%2e',
      '/register/%2E',
      '/register/./',
      '/./register',
      '/x/../register',
      '/x/%2e%2e/register',
      '/REGISTER',
      '/Register/',
      '/register?x=1',
      '/register/?x=1',
    ];
    const { accepted, allowed, statuses } = await registrations(single.origin, [
      ...plain(REGISTRATION_BURST),
      ...spellings,
      ...spellings,
    ]);
    expect(accepted).toBeGreaterThanOrEqual(REGISTRATION_BURST);
    expect(accepted).toBeLessThanOrEqual(allowed);
    // Past the burst, every spelling is the limit's (or no route at all): none a side door.
    expect(
      statuses.slice(REGISTRATION_BURST).every((status) => [201, 404, 429].includes(status)),
    ).toBe(true);
    // Paths that are not the endpoint, whatever they look like: never a registration.
    for (const path of ['//register', '/register//', '/register%2f', '/registe%72']) {
      const { status } = await post(single.origin, path, clientMetadata([redirect.url]), {
        localAddress: '127.0.0.7',
      });
      expect({ path, status }).toEqual({ path, status: 404 });
    }
  });

  it('counts per caller address: another caller still registers', async () => {
    const flood = await registrations(single.origin, plain(REGISTRATION_BURST + 5), {
      localAddress: '127.0.0.2',
    });
    expect(flood.accepted).toBeLessThanOrEqual(flood.allowed);
    const other = await post(single.origin, '/register', clientMetadata([redirect.url]), {
      localAddress: '127.0.0.3',
    });
    expect(other.status).toBe(201);
  });

  it('counts in the store, across replicas sharing it', async () => {
    // Round robin: the registrations alternate between the replicas, which share one count.
    const { accepted, allowed, statuses } = await registrations(
      replicated.origin,
      [...plain(REGISTRATION_BURST + 10), '/register/', '/REGISTER'],
      { localAddress: '127.0.0.1' },
    );
    expect(accepted).toBeGreaterThanOrEqual(REGISTRATION_BURST);
    expect(accepted).toBeLessThanOrEqual(allowed);
    expect(statuses.slice(REGISTRATION_BURST)).toContain(429);
  });

  it('believes X-Forwarded-For from a trusted proxy only', async () => {
    const from = (address: string) => () => ({ 'x-forwarded-for': `${address}, 127.0.0.9` });
    // The proxy (a trusted address) names the caller: each caller has its own count.
    const flood = await registrations(proxied.origin, plain(REGISTRATION_BURST + 5), {
      headers: from('198.51.100.7'),
    });
    expect(flood.accepted).toBeLessThanOrEqual(flood.allowed);
    const other = await post(proxied.origin, '/register', clientMetadata([redirect.url]), {
      headers: from('198.51.100.8')(),
    });
    expect(other.status).toBe(201);
    // At a front trusting no proxy, the header is the caller's word: the socket counts, whatever
    // address each request claims.
    const forged = await registrations(single.origin, plain(REGISTRATION_BURST + 10), {
      localAddress: '127.0.0.4',
      headers: (index) => ({ 'x-forwarded-for': `198.51.100.${index}` }),
    });
    expect(forged.accepted).toBeLessThanOrEqual(forged.allowed);
  });
});

describe('consent', { timeout: 90_000 }, () => {
  let person: BrowserContext;
  let clientId: string;
  const other = () => `${redirect.url}/other`;
  beforeAll(async () => {
    person = await browser.newContext();
    const response = await fetch(`${scene.front.origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: clientMetadata([redirect.url, other()]),
    });
    expect(response.status).toBe(201);
    clientId = ((await response.json()) as { client_id: string }).client_id;
  });
  afterAll(async () => {
    await person?.close();
  });

  function authorizeUrl(client: string, redirectUri: string, scope: string): URL {
    const url = new URL(`${scene.front.origin}/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client,
      redirect_uri: redirectUri,
      scope,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    return url;
  }

  /** Where the person's browser lands for `url`: the redirect URI (no page), or a consent page. */
  async function landing(url: URL): Promise<'code' | 'consent page'> {
    const page = await person.newPage();
    try {
      await page.goto(url.href);
      const at = new URL(page.url());
      if (at.pathname.startsWith('/interaction/')) {
        expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(1);
        return 'consent page';
      }
      expect(at.searchParams.get('code')).toBeTruthy();
      return 'code';
    } finally {
      await page.close();
    }
  }

  it('is asked again for another redirect URI, host or scope, and not for the same ones', async () => {
    const read = 'agentchat:read';
    const page = await person.newPage();
    await signInAsPerson(page, authorizeUrl(clientId, redirect.url, read), redirect.url);
    await page.close();
    // The same client, redirect URI and scope: remembered.
    expect(await landing(authorizeUrl(clientId, redirect.url, read))).toBe('code');
    // Another redirect URI of the same client.
    expect(await landing(authorizeUrl(clientId, other(), read))).toBe('consent page');
    // Another scope.
    expect(await landing(authorizeUrl(clientId, redirect.url, `${read} agentchat:write`))).toBe(
      'consent page',
    );
    // Another host, at the same redirect URI.
    const { clientId: otherHost } = await registerPublicClient(
      scene.front.origin,
      redirect.url,
      'Another Host',
    );
    expect(await landing(authorizeUrl(otherHost, redirect.url, read))).toBe('consent page');
    // And still nothing new for the first.
    expect(await landing(authorizeUrl(clientId, redirect.url, read))).toBe('code');
  });
});
