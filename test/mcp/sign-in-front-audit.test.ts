/**
 * The sign-in front as an auditor tries it (OWASP's OAuth 2.0 and SSRF cheat sheets, RFC 9700's
 * attacker model): an open redirect through an error, a code redeemed by another client, with
 * another redirect URI or without its PKCE verifier, a token asked for another audience, a
 * request object fetched from a URL the caller names, and registration bodies past the bound.
 * Codes come from real sign-ins in Chromium.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignInScene, startSignInScene } from '../helpers/sign-in-front.js';
import { registerPublicClient, signInAsPerson } from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_audit_2a7c';

let scene: SignInScene;
let origin: string;
let person: BrowserContext;
/** A server on this machine standing for a URL an attacker would have the front fetch. */
let bait: Server;
let baitOrigin: string;
const baitRequests: string[] = [];

beforeAll(async () => {
  scene = await startSignInScene(SERVER_KEY);
  ({ origin } = scene.front);
  person = await scene.browser.newContext();
  bait = createServer((req, res) => {
    baitRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  baitOrigin = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await person?.close();
  bait?.closeAllConnections();
  bait?.close();
  await scene?.close();
});

function authorizeUrl(clientId: string, params: Record<string, string> = {}): URL {
  const url = new URL(`${origin}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: scene.redirect.url,
    scope: 'agentchat:read',
    state: 'audit-state',
    ...params,
  }).toString();
  return url;
}

/** A code for `clientId` (the person allows it in Chromium), with its PKCE verifier. */
async function codeFor(clientId: string): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const page = await person.newPage();
  try {
    const back = await signInAsPerson(
      page,
      authorizeUrl(clientId, {
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }),
      scene.redirect.url,
    );
    return { code: back.searchParams.get('code') as string, verifier };
  } finally {
    await page.close();
  }
}

async function token(form: Record<string, string>) {
  const response = await fetch(`${origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('the sign-in front, audited', { timeout: 60_000 }, () => {
  it('redirects nowhere from an error about an unknown client or a foreign redirect URI', async () => {
    const { clientId } = await registerPublicClient(origin, scene.redirect.url, 'Audit Host');
    for (const url of [
      authorizeUrl('no-such-client', { redirect_uri: 'https://attacker.example/cb' }),
      authorizeUrl(clientId, { redirect_uri: 'https://attacker.example/cb' }),
      authorizeUrl(clientId, { redirect_uri: `${scene.redirect.url}/../../attacker` }),
    ]) {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      // Error pages hold like the consent page: no framing, no script.
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('refuses a code redeemed by another client, at another redirect URI, or without its verifier', async () => {
    const { clientId } = await registerPublicClient(origin, scene.redirect.url, 'Audit Host');
    const { clientId: otherClient } = await registerPublicClient(
      origin,
      scene.redirect.url,
      'Injecting Host',
    );
    const attempts: Record<string, string>[] = [
      { client_id: otherClient },
      { redirect_uri: `${scene.redirect.url}?other=1` },
      { code_verifier: '' },
      { code_verifier: randomBytes(32).toString('base64url') },
    ];
    for (const change of attempts) {
      const { code, verifier } = await codeFor(clientId);
      const form: Record<string, string> = {
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        code_verifier: verifier,
        redirect_uri: scene.redirect.url,
        ...change,
      };
      if (form.code_verifier === '') delete form.code_verifier;
      const answer = await token(form);
      expect({ change, status: answer.status }).toEqual({ change, status: 400 });
      expect(['invalid_grant', 'invalid_request']).toContain(answer.body.error);
      expect(answer.body.access_token).toBeUndefined();
    }
  });

  it('keeps a refresh token to its client and its scopes', async () => {
    const { clientId } = await registerPublicClient(origin, scene.redirect.url, 'Audit Host');
    const { clientId: otherClient } = await registerPublicClient(
      origin,
      scene.redirect.url,
      'Stealing Host',
    );
    const { code, verifier } = await codeFor(clientId);
    const issued = await token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: scene.redirect.url,
    });
    expect(issued.status).toBe(200);
    const refresh = (change: Record<string, string>) =>
      token({
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: issued.body.refresh_token as string,
        ...change,
      });
    expect(await refresh({ client_id: otherClient })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await refresh({ scope: 'agentchat:read agentchat:write' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
  });

  it('issues tokens for its own resource only', async () => {
    const { clientId } = await registerPublicClient(origin, scene.redirect.url, 'Audit Host');
    const { code, verifier } = await codeFor(clientId);
    const answer = await token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: scene.redirect.url,
      resource: 'https://other-api.example/mcp',
    });
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('fetches no request object from a URL the caller names', async () => {
    const { clientId } = await registerPublicClient(origin, scene.redirect.url, 'Audit Host');
    const response = await fetch(
      authorizeUrl(clientId, {
        request_uri: `${baitOrigin}/request.jwt`,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual' },
    );
    // Refused to the host's registered redirect URI, with state and iss: nothing fetched.
    expect(response.status).toBe(303);
    const back = new URL(response.headers.get('location') as string);
    expect(back.href.startsWith(scene.redirect.url)).toBe(true);
    expect(back.searchParams.get('error')).toBe('request_uri_not_supported');
    expect(back.searchParams.has('code')).toBe(false);
    expect(baitRequests).toEqual([]);
  });

  it('answers a registration past 64 KiB 413, and keeps nothing of it', async () => {
    const response = await fetch(`${origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'x'.repeat(70 * 1024),
        redirect_uris: [scene.redirect.url],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });
});
