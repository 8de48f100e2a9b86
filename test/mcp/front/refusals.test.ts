/**
 * What the sign-in front refuses, with oidc-provider as its engine: a redirect URI the client did
 * not register (an error page, no redirect), PKCE missing or wrong, a code used twice, a refresh
 * token used after rotation (its whole family revoked), a person denying the host or cancelling
 * at the identity provider (access_denied back to the host), and a consent form posted without
 * its one-time token. Codes come from real sign-ins in Chromium.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { Browser, BrowserContext } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignInScene, startSignInScene } from '../../helpers/sign-in-front.js';
import {
  type PersonChoices,
  registerPublicClient,
  signInAsPerson,
} from '../../helpers/sign-in-host.js';
import type { UpstreamIdentityProvider } from '../../helpers/upstream-identity-provider.js';

const SERVER_KEY = 'sk_front_refusals_5e0b';

let scene: SignInScene;
let upstream: UpstreamIdentityProvider;
let origin: string;
let browser: Browser;
let person: BrowserContext;
let redirect: { url: string; server: Server };

beforeAll(async () => {
  scene = await startSignInScene(SERVER_KEY);
  ({ browser, redirect } = scene);
  ({ upstream, origin } = scene.front);
  person = await browser.newContext();
}, 60_000);
afterAll(async () => {
  await person?.close();
  await scene?.close();
});

/** A fresh PKCE verifier and its S256 challenge. */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a public client (RFC 7591) redirecting to the test's redirect URI. */
async function register(): Promise<string> {
  const { status, clientId } = await registerPublicClient(origin, redirect.url, 'Refusals Host');
  expect(status).toBe(201);
  return clientId;
}

function authorizeUrl(clientId: string, params: Record<string, string>): URL {
  const url = new URL(`${origin}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect.url,
    scope: 'agentchat:read agentchat:write',
    resource: `${origin}/mcp`,
    state: 'state-1',
    ...params,
  }).toString();
  return url;
}

/** A code for `clientId`, the person allowing it in the browser (signed in once, then remembered). */
async function code(clientId: string, challenge: string): Promise<string> {
  const page = await person.newPage();
  try {
    const back = await signInAsPerson(
      page,
      authorizeUrl(clientId, { code_challenge: challenge, code_challenge_method: 'S256' }),
      redirect.url,
    );
    return back.searchParams.get('code') as string;
  } finally {
    await page.close();
  }
}

async function token(
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function redeem(clientId: string, authorizationCode: string, verifier: string) {
  return token({
    grant_type: 'authorization_code',
    client_id: clientId,
    code: authorizationCode,
    code_verifier: verifier,
    redirect_uri: redirect.url,
  });
}

describe('the sign-in front refuses', { timeout: 60_000 }, () => {
  it('a redirect URI the client did not register: an error page, never a redirect', async () => {
    const clientId = await register();
    const { challenge } = pkce();
    const response = await fetch(
      authorizeUrl(clientId, {
        redirect_uri: 'https://attacker.example/steal',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain(
      'redirect_uri did not match any of the client&#39;s registered redirect_uris',
    );
  });

  it('an authorization without PKCE, or with the plain method', async () => {
    const clientId = await register();
    for (const params of [{}, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }]) {
      const response = await fetch(authorizeUrl(clientId, params), { redirect: 'manual' });
      expect(response.status).toBe(303);
      const back = new URL(response.headers.get('location') as string);
      expect(back.href.startsWith(redirect.url)).toBe(true);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.has('code')).toBe(false);
    }
  });

  it('a wrong PKCE verifier: nothing issued for it, the right one then redeems the code', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const authorizationCode = await code(clientId, challenge);
    const wrong = await redeem(clientId, authorizationCode, pkce().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(wrong.body.access_token).toBeUndefined();
    const missing = await token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code: authorizationCode,
      redirect_uri: redirect.url,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.access_token).toBeUndefined();
    const right = await redeem(clientId, authorizationCode, verifier);
    expect(right.status).toBe(200);
  });

  it('a code used twice, and revokes what the first use issued', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const authorizationCode = await code(clientId, challenge);
    const first = await redeem(clientId, authorizationCode, verifier);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toBeTruthy();
    const second = await redeem(clientId, authorizationCode, verifier);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.body.refresh_token as string,
    });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a refresh token used after rotation, revoking its whole family', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const issued = await redeem(clientId, await code(clientId, challenge), verifier);
    const refresh = (refreshToken: string) =>
      token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
    const rotated = await refresh(issued.body.refresh_token as string);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect(rotated.body.access_token).toBeTruthy();
    // The old one again: refused, and the family (the rotated one too) revoked.
    expect(await refresh(issued.body.refresh_token as string)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await refresh(rotated.body.refresh_token as string)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('a revoked refresh token', async () => {
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const issued = await redeem(clientId, await code(clientId, challenge), verifier);
    const revoked = await fetch(`${origin}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: issued.body.refresh_token as string,
        client_id: clientId,
      }),
    });
    expect(revoked.status).toBe(200);
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: issued.body.refresh_token as string,
    });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it.each<[string, PersonChoices, () => string]>([
    ['a host the person denies', { decision: 'Deny' }, () => 'The person denied the access.'],
    [
      'a person who cancels at the identity provider',
      { upstream: 'cancel' },
      () => 'The sign-in at the identity provider ended with access_denied.',
    ],
  ])('%s: access_denied back to the host, no code', async (_name, choices, description) => {
    const clientId = await register();
    const context = await browser.newContext();
    try {
      const back = await signInAsPerson(
        await context.newPage(),
        authorizeUrl(clientId, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
        redirect.url,
        choices,
      );
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('error_description')).toBe(description());
      expect(back.searchParams.get('state')).toBe('state-1');
      expect(back.searchParams.has('code')).toBe(false);
      expect(back.searchParams.get('iss')).toBe(origin);
    } finally {
      await context.close();
    }
  });

  it('a consent form posted without its one-time token (CSRF), and any framing of its page', async () => {
    const clientId = await register();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(
        authorizeUrl(clientId, {
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        }).href,
      );
      expect(await page.locator('#client-name').textContent()).toBe('Refusals Host');
      expect(await page.locator('#redirect-uri').textContent()).toBe(redirect.url);
      const consent = await page.request.get(page.url());
      expect(consent.headers()['x-frame-options']).toBe('DENY');
      expect(consent.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      // The browser's own cookies, but a forged token.
      await page.locator('input[name="csrf"]').evaluate((input) => {
        (input as HTMLInputElement).value = 'forged';
      });
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForLoadState();
      expect(await page.locator('h1').textContent()).toBe('This form has expired');
      expect(
        upstream.authorizationRequests.every(
          (query) => query.get('client_id') === upstream.clientId,
        ),
      ).toBe(true);
      expect(page.url().startsWith(upstream.issuer)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
