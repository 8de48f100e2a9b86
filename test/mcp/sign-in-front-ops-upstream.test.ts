/**
 * The sign-in front set up wrong at its upstream: a real oidc-provider given a wrong client
 * secret answers the front's code exchange `invalid_client`. The person's error page names the
 * code, one line with it is logged, and neither says the secret.
 */
import type { Server } from 'node:http';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignInFront, startSignInFront, warningsInto } from '../helpers/sign-in-front.js';
import {
  authorizationUrl,
  launchChromium,
  registerPublicClient,
  signInAsPerson,
  startRedirectTarget,
} from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_upstream_ops_71d3';
const WRONG_SECRET = 'wrong-secret-4f1c9a';

const warnings: string[] = [];
let front: SignInFront;
let browser: Browser;
let redirect: { url: string; server: Server };

beforeAll(async () => {
  [browser, redirect] = await Promise.all([launchChromium(), startRedirectTarget()]);
  front = await startSignInFront(SERVER_KEY, undefined, {
    upstreamClientSecret: WRONG_SECRET,
    logger: warningsInto(warnings),
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  redirect?.server.close();
  await front?.close();
});

describe('a refusal at the upstream token endpoint', { timeout: 60_000 }, () => {
  it('is named on the person’s error page with its code, and logged once, without the secret', async () => {
    const { clientId } = await registerPublicClient(front.origin, redirect.url);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await expect(
        signInAsPerson(page, authorizationUrl(front.origin, clientId, redirect.url), redirect.url),
      ).rejects.toThrow(/Stuck at/);
      expect(new URL(page.url()).pathname).toBe('/oauth/callback');
      const text = (await page.locator('body').textContent()) ?? '';
      expect(text).toContain('The sign-in at the identity provider was refused');
      expect(text).toMatch(/its token endpoint answered invalid_client/);
      expect(text).not.toContain(WRONG_SECRET);
      expect(text).not.toContain(front.upstream.issuer);
    } finally {
      await context.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`the token endpoint of ${front.upstream.issuer}`);
    expect(warnings[0]).toMatch(/refused the front's code exchange: invalid_client/);
    expect(warnings[0]).not.toContain(WRONG_SECRET);
  });
});
