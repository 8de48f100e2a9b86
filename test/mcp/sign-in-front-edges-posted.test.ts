/**
 * An authorization request posted to /authorize: a form becomes the same request as a link (a
 * 303 to it, which the engine then reads and checks as any GET); anything else is refused with
 * the front's error page, and nothing reaches the engine. The metadata names only endpoints the
 * front answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_POSTED_AUTHORIZATION_BYTES } from '../../src/mcp/front/posted-authorization.js';
import { type SignInFront, startSignInFront } from '../helpers/sign-in-front.js';
import { authorizationUrl, registerPublicClient } from '../helpers/sign-in-host.js';

let front: SignInFront;
let clientId: string;
const redirectUri = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  front = await startSignInFront('sk_front_edges_posted_5e1a');
  ({ clientId } = await registerPublicClient(front.origin, redirectUri));
}, 60_000);
afterAll(() => front?.close());

/** POSTs `body` to the front's /authorize as `contentType`, following no redirect. */
function post(body: string, contentType = 'application/x-www-form-urlencoded') {
  return fetch(`${front.origin}/authorize`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
    redirect: 'manual',
  });
}

describe('a POST to /authorize', { timeout: 30_000 }, () => {
  it('is sent on as the same request, a link to /authorize', async () => {
    const form = authorizationUrl(front.origin, clientId, redirectUri).searchParams;
    const answer = await post(form.toString());
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(`${front.origin}/authorize`);
    expect([...location.searchParams]).toEqual([...form]);
    // Followed, it is the engine's own start of a sign-in: to the consent page.
    const next = await fetch(location, { redirect: 'manual' });
    expect(next.status).toBe(303);
    expect(next.headers.get('location')).toMatch(/^\/interaction\//);
  });

  it('keeps a repeated parameter, which the engine then refuses', async () => {
    const form = authorizationUrl(front.origin, clientId, redirectUri).searchParams;
    form.append('scope', 'agentchat:write');
    const answer = await post(form.toString());
    const next = await fetch(answer.headers.get('location') ?? '', { redirect: 'manual' });
    expect(next.status).toBe(303);
    const back = new URL(next.headers.get('location') ?? '');
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/scope/);
  });

  it('refuses a body that is not a form, with the error page', async () => {
    const form = authorizationUrl(front.origin, clientId, redirectUri).searchParams;
    const answer = await post(JSON.stringify(Object.fromEntries(form)), 'application/json');
    expect(answer.status).toBe(415);
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const page = await answer.text();
    expect(page).toContain('The sign-in was refused');
    expect(page).toContain('application/x-www-form-urlencoded');
  });

  it('refuses a form too large to become a link', async () => {
    const form = authorizationUrl(front.origin, clientId, redirectUri).searchParams;
    form.set('state', 'x'.repeat(MAX_POSTED_AUTHORIZATION_BYTES));
    const answer = await post(form.toString());
    expect(answer.status).toBe(413);
    expect(await answer.text()).toContain(`larger than ${MAX_POSTED_AUTHORIZATION_BYTES} bytes`);
  });
});

describe('the metadata', { timeout: 30_000 }, () => {
  it('names no endpoint the front does not answer', async () => {
    const metadata = (await (
      await fetch(`${front.origin}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    const endpoints = Object.entries(metadata).filter(([name]) => name.endsWith('_endpoint'));
    expect(endpoints.map(([name]) => name).sort()).toEqual([
      'authorization_endpoint',
      'registration_endpoint',
      'revocation_endpoint',
      'token_endpoint',
    ]);
    expect(metadata.pushed_authorization_request_endpoint).toBeUndefined();
  });
});
