/**
 * The sign-in front's own requests to the company's identity provider (its discovery, the code
 * exchange, its key set) through the company's proxy: `createMcpHttpHandler({ fetchOptions })`
 * with a dispatcher to a real tinyproxy, and a person signing in in Chromium, whose own pages
 * are not the front's to send anywhere. Refused by the proxy, the sign-in stops at an error page
 * that quotes the proxy's 407.
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

it('goes no further when the proxy refuses it (407): an error page naming it, nothing asked upstream', async () => {
  const { browser, redirect } = scene;
  const anonymous = new ProxyAgent(proxy.anonymousUrl);
  const refused = await startSignInFront('sk_front_proxy_81c3', undefined, {
    fetchOptions: { dispatcher: anonymous },
  });
  const context = await browser.newContext();
  try {
    const { clientId } = await registerPublicClient(refused.origin, redirect.url);
    const page = await context.newPage();
    await expect(
      signInAsPerson(page, authorizationUrl(refused.origin, clientId, redirect.url), redirect.url),
    ).rejects.toThrow(/Stuck at/);
    expect(await page.locator('#error-description').textContent()).toMatch(
      /could not be discovered: the proxy refused its credentials \(407\)/,
    );
    expect(refused.upstream.authorizationRequests).toEqual([]);
    expect(refused.upstream.tokenRequests).toEqual([]);
  } finally {
    await context.close();
    await refused.close();
    await anonymous.close();
  }
});
