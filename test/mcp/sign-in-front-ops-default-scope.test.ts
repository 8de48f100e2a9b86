/**
 * An authorization request without `scope` (OAuth allows it; the official MCP conformance
 * suite's authorization-server scenario sends one): the front gives the scopes of the tools the
 * client may use (RFC 6749 section 3.3), and the host gets a code and tokens, never
 * `access_denied` after the person consented. The same whether the host sends the request as a
 * link (GET) or a form (POST).
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SignInScene,
  signInThroughFront,
  startSignInScene,
} from '../helpers/sign-in-front.js';

let scene: SignInScene;

beforeAll(async () => {
  scene = await startSignInScene('sk_front_default_scope_0c4d');
}, 60_000);
afterAll(() => scene?.close());

describe('a request without scope', { timeout: 60_000 }, () => {
  it('is given the tools’ scopes, through a whole sign-in', async () => {
    const { front, browser, redirect } = scene;
    const { tokens } = await signInThroughFront(browser, front.origin, redirect.url, {
      scope: null,
    });
    const granted = String(decodeJwt(tokens.access_token).scope).split(' ').sort();
    expect(granted).toEqual(['agentchat:read', 'agentchat:write']);
  });

  it('is given only the tools’ scopes the client registered, when it named any', async () => {
    const { front, browser, redirect } = scene;
    const { tokens } = await signInThroughFront(browser, front.origin, redirect.url, {
      scope: null,
      clientMetadata: { scope: 'agentchat:read offline_access' },
    });
    expect(String(decodeJwt(tokens.access_token).scope)).toBe('agentchat:read');
  });

  it('is given the tools’ scopes when posted as a form, through a whole sign-in', async () => {
    const { front, browser, redirect } = scene;
    const { tokens } = await signInThroughFront(browser, front.origin, redirect.url, {
      scope: null,
      method: 'POST',
    });
    const granted = String(decodeJwt(tokens.access_token).scope).split(' ').sort();
    expect(granted).toEqual(['agentchat:read', 'agentchat:write']);
  });

  it('is given only the registered tools’ scopes when posted as a form', async () => {
    const { front, browser, redirect } = scene;
    const { tokens } = await signInThroughFront(browser, front.origin, redirect.url, {
      scope: null,
      method: 'POST',
      clientMetadata: { scope: 'agentchat:read offline_access' },
    });
    expect(String(decodeJwt(tokens.access_token).scope)).toBe('agentchat:read');
  });

  it('keeps the scope a form names', async () => {
    const { front, browser, redirect } = scene;
    const { tokens } = await signInThroughFront(browser, front.origin, redirect.url, {
      scope: 'agentchat:write',
      method: 'POST',
    });
    expect(String(decodeJwt(tokens.access_token).scope)).toBe('agentchat:write');
  });
});
