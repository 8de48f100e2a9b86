/**
 * The sign-in front against an upstream identity provider that lies or stalls: an ID token with a
 * broken signature, another sign-in's nonce, another application's audience, or a token endpoint
 * slower than the front waits. Each time the person gets the front's error page saying what was
 * refused, the host gets no code, and nothing is issued. And one that answers an OAuth error: told
 * to the host when the host can act on it, else the front's error page naming it.
 */
import type { Server } from 'node:http';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import {
  type SignInFront,
  type SignInScene,
  startSignInScene,
} from '../../helpers/sign-in-front.js';
import {
  authorizationUrl,
  registerPublicClient,
  signInAsPerson,
} from '../../helpers/sign-in-host.js';
import type {
  UpstreamIdentityProvider,
  UpstreamLie,
} from '../../helpers/upstream-identity-provider.js';

const SERVER_KEY = 'sk_front_lies_3b9e';

let scene: SignInScene;
let front: SignInFront;
let service: MockServer;
let upstream: UpstreamIdentityProvider;
let origin: string;
let browser: Browser;
let redirect: { url: string; server: Server };
/** Every request the host's redirect URI received. */
const arrivals: string[] = [];

beforeAll(async () => {
  scene = await startSignInScene(SERVER_KEY);
  ({ front, browser, redirect } = scene);
  ({ service, upstream, origin } = front);
  redirect.server.on('request', (req) => arrivals.push(req.url ?? ''));
}, 60_000);
afterAll(() => scene?.close());

describe('an upstream that lies or stalls', { timeout: 60_000 }, () => {
  it.each<[string, UpstreamLie, number, RegExp]>([
    ['an ID token whose signature is broken', 'signature', 0, /signature verification failed/],
    ['an ID token for another sign-in (its nonce)', 'nonce', 0, /"nonce"/],
    ['an ID token for another application (its aud)', 'audience', 0, /"aud"/],
    ['a token endpoint slower than the front waits', undefined, 11_000, /timed out/],
  ])('%s: an error page, no code, nothing issued', async (_name, lie, delayMs, reason) => {
    upstream.lie = lie;
    upstream.delayMs = delayMs;
    const tokenRequestsBefore = upstream.tokenRequests.length;
    const arrivalsBefore = arrivals.length;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await expect(
        signInAsPerson(
          page,
          authorizationUrl(
            origin,
            (await registerPublicClient(origin, redirect.url)).clientId,
            redirect.url,
          ),
          redirect.url,
          {
            stepTimeoutMs: 20_000,
          },
        ),
      ).rejects.toThrow(/Stuck at .*\/oauth\/callback/);
      expect(await page.locator('h1').textContent()).toBe(
        'The sign-in at the identity provider was refused',
      );
      expect(await page.locator('#error-description').textContent()).toMatch(reason);
      expect(await page.locator('#error-description').textContent()).toContain(
        'Nothing was issued',
      );
    } finally {
      await context.close();
      upstream.lie = undefined;
      upstream.delayMs = 0;
    }
    // The front did exchange the code upstream, and refused what came back.
    expect(upstream.tokenRequests.length).toBeGreaterThan(tokenRequestsBefore);
    expect(arrivals.slice(arrivalsBefore)).toEqual([]);
    expect(service.service.requests).toEqual([]);
  });
});

describe('an upstream that answers an error', { timeout: 60_000 }, () => {
  /** Signs a person in while the upstream answers `error`; resolves with the page left on. */
  async function signInRefusedWith(error: string) {
    upstream.refuseWith = error;
    const context = await browser.newContext();
    const page = await context.newPage();
    const url = authorizationUrl(
      origin,
      (await registerPublicClient(origin, redirect.url)).clientId,
      redirect.url,
    );
    url.searchParams.set('state', `refused-${error}`);
    const back = await signInAsPerson(page, url, redirect.url).catch((stuck: Error) => stuck);
    upstream.refuseWith = undefined;
    return { back, page, context };
  }

  it('one the host can act on (temporarily_unavailable): told to the host, with its state', async () => {
    const tokenRequestsBefore = upstream.tokenRequests.length;
    const { back, context } = await signInRefusedWith('temporarily_unavailable');
    await context.close();
    if (back instanceof Error) throw back;
    expect(back.searchParams.get('error')).toBe('temporarily_unavailable');
    expect(back.searchParams.get('state')).toBe('refused-temporarily_unavailable');
    expect(back.searchParams.get('iss')).toBe(origin);
    expect(back.searchParams.has('code')).toBe(false);
    expect(upstream.tokenRequests.length).toBe(tokenRequestsBefore);
  });

  it('one of the front’s set-up (invalid_scope): an error page naming it, nothing for the host', async () => {
    const arrivalsBefore = arrivals.length;
    const { back, page, context } = await signInRefusedWith('invalid_scope');
    try {
      expect(back).toBeInstanceOf(Error);
      expect(String(back)).toMatch(/Stuck at .*\/oauth\/callback/);
      expect(await page.locator('h1').textContent()).toBe(
        'The sign-in at the identity provider was refused',
      );
      expect(await page.locator('#error-description').textContent()).toContain(
        'it answered invalid_scope: Refused by the test: invalid_scope',
      );
    } finally {
      await context.close();
    }
    expect(arrivals.slice(arrivalsBefore)).toEqual([]);
  });
});
