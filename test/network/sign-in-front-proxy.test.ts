/**
 * The sign-in front's own requests to the company's identity provider (its discovery, the code
 * exchange, its key set) through the company's proxy: `createMcpHttpHandler({ fetchOptions })`
 * with a dispatcher to a real tinyproxy, and a person signing in in Chromium, whose own pages
 * are not the front's to send anywhere. Refused by the proxy, the front cannot discover the
 * identity provider when it starts: it answers 503 saying so in general words, is not ready, and
 * logs the proxy's 407 once.
 */
import { ProxyAgent } from 'undici7';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SignInScene, startSignInFront, startSignInScene } from '../helpers/sign-in-front.js';
import { authorizationUrl, registerPublicClient, signInAsPerson } from '../helpers/sign-in-host.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';

let proxy: Tinyproxy;
let dispatcher: ProxyAgent;
let scene: SignInScene;

beforeAll(async () => {
  proxy = await startTinyproxy();
  dispatcher = new ProxyAgent(proxy.url);
  scene = await startSignInScene('sk_front_proxy_81c3', { fetchOptions: { dispatcher } });
}, 60_000);
afterAll(async () => {
  await scene?.close();
  await dispatcher?.close();
  await proxy?.close();
});

it('signs a person in with every request of its own to the identity provider through the proxy', async () => {
  const { front, browser, redirect } = scene;
  const { origin, upstream } = front;
  const context = await browser.newContext();
  try {
    const { clientId } = await registerPublicClient(origin, redirect.url);
    const back = await signInAsPerson(
      await context.newPage(),
      authorizationUrl(origin, clientId, redirect.url),
      redirect.url,
    );
    expect(back.searchParams.get('code')).toMatch(/.+/);
  } finally {
    await context.close();
  }
  // undici's ProxyAgent tunnels every request (CONNECT), so the proxy's log names the host only;
  // the test below proves the front's requests cannot go round it. The person's browser went to
  // the identity provider itself.
  const host = new URL(upstream.issuer).host;
  await expect.poll(() => proxy.requests()).toContain(`CONNECT ${host}`);
  expect(upstream.tokenRequests).toHaveLength(1);
});

it('goes no further when the proxy refuses it (407): 503, not ready, the 407 in the log, nothing asked upstream', async () => {
  const anonymous = new ProxyAgent(proxy.anonymousUrl);
  const warnings: string[] = [];
  const refused = await startSignInFront('sk_front_proxy_81c3', undefined, {
    fetchOptions: { dispatcher: anonymous },
    logger: {
      error: () => {},
      warn: (message: string) => warnings.push(message),
      info: () => {},
      debug: () => {},
    },
  });
  try {
    // The front discovers the identity provider before it serves anything that needs it.
    const registration = await fetch(`${refused.origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [scene.redirect.url],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registration.status).toBe(503);
    expect(registration.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    // What failed in general words; where the identity provider is, and why, is the log's.
    const { error, error_description } = await registration.json();
    expect(error).toBe('temporarily_unavailable');
    expect(error_description).toMatch(/the identity provider cannot be reached/);
    expect(error_description).not.toMatch(/407|proxy|127\.0\.0\.1|localhost/);
    const health = await fetch(`${refused.origin}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({
      status: 'unavailable',
      problem: 'the identity provider cannot be reached',
    });
    expect(warnings).toEqual([
      expect.stringMatching(/could not be discovered: the proxy refused its credentials \(407\)/),
    ]);
    expect(refused.upstream.authorizationRequests).toEqual([]);
    expect(refused.upstream.tokenRequests).toEqual([]);
  } finally {
    await refused.close();
    await anonymous.close();
  }
});
