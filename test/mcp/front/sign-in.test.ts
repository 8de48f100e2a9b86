/**
 * The sign-in front end to end: createMcpHttpHandler with upstreamIssuer on 127.0.0.1, an
 * upstream identity provider configured as Entra ID behaves (on `localhost`), the official MCP
 * client registering itself and signing a person in through real Chromium, then listing and
 * calling the tools; the service sees the server's own key only.
 */
import type { Server } from 'node:http';
import {
  Client as McpClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import { allToolNames, callTool, listedToolNames } from '../../helpers/mcp-client.js';
import {
  type SignInFront,
  type SignInScene,
  startSignInScene,
} from '../../helpers/sign-in-front.js';
import {
  authorizationUrl,
  BrowserHost,
  registerPublicClient,
  signInAsPerson,
} from '../../helpers/sign-in-host.js';
import type { UpstreamIdentityProvider } from '../../helpers/upstream-identity-provider.js';

const SERVER_KEY = 'sk_front_own_key_8c21';

let scene: SignInScene;
let front: SignInFront;
let service: MockServer;
let upstream: UpstreamIdentityProvider;
let origin: string;
let browser: Browser;
let redirect: { url: string; server: Server };

beforeAll(async () => {
  scene = await startSignInScene(SERVER_KEY);
  ({ front, browser, redirect } = scene);
  ({ service, upstream, origin } = front);
}, 60_000);
afterAll(() => scene?.close());
beforeEach(() => service.service.reset());

/** Connects `host`, signing the person in through the browser when the front asks. */
async function connectSignedIn(host: BrowserHost, login = 'alice'): Promise<McpClient> {
  const url = new URL(`${origin}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: host });
  const mcp = new McpClient({ name: 'browser-host', version: '1.0.0' });
  await expect(mcp.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const authorizationUrl = host.authorizationUrls.at(-1) as URL;
    const back = await signInAsPerson(page, authorizationUrl, redirect.url, { login });
    await first.finishAuth(back.searchParams);
  } finally {
    await context.close();
  }
  const connected = new McpClient({ name: 'browser-host', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: host }));
  return connected;
}

describe('the sign-in front', { timeout: 90_000 }, () => {
  it('is an authorization server of its own: RFC 8414 metadata, named by the RFC 9728 metadata', async () => {
    const metadata = await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      revocation_endpoint: `${origin}/revoke`,
      jwks_uri: `${origin}/jwks`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['agentchat:read', 'agentchat:write']),
    );
    const resource = await (
      await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(resource).toMatchObject({ resource: `${origin}/mcp`, authorization_servers: [origin] });
  });

  it('registers the official MCP client, signs the person in upstream, and serves the tools', async () => {
    const host = new BrowserHost(redirect.url);
    const mcp = await connectSignedIn(host);
    expect(await listedToolNames(mcp)).toEqual(allToolNames);
    const created = await callTool(mcp, 'create_project', { name: 'Front', agentId: 'agent_1' });
    expect(created.isError).toBeFalsy();
    const id = (created.structuredContent as { id: string }).id;
    const fetched = await callTool(mcp, 'get_project', { id });
    expect(fetched.structuredContent).toMatchObject({ id, name: 'Front' });
    await mcp.close();

    // The service saw the server's own key only.
    expect(
      new Set(service.service.requests.map((request) => request.headers.authorization)),
    ).toEqual(new Set([`Bearer ${SERVER_KEY}`]));
    // Upstream: OpenID Connect with PKCE S256 and a nonce, and no resource (refused there).
    const asked = upstream.authorizationRequests.at(-1) as URLSearchParams;
    expect(asked.get('client_id')).toBe(upstream.clientId);
    expect(asked.get('redirect_uri')).toBe(`${origin}/oauth/callback`);
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('nonce')).toMatch(/.{20,}/);
    expect(asked.get('scope')).toBe('openid profile email');
    expect(asked.has('resource')).toBe(false);
    // The host's token: RFC 9068, for the resource, the person's upstream subject, the host.
    const token = host.savedTokens?.access_token as string;
    expect(decodeProtectedHeader(token).typ).toBe('at+jwt');
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      iss: origin,
      aud: `${origin}/mcp`,
      sub: 'alice',
      client_id: host.clientInfo?.client_id,
    });
    expect(String(claims.scope).split(' ').sort()).toEqual(['agentchat:read', 'agentchat:write']);
    expect((claims.exp as number) - (claims.iat as number)).toBeLessThanOrEqual(3600);
    expect(host.savedTokens?.refresh_token).toBeTruthy();
  });

  it('sends the code back with state and iss (RFC 9207)', async () => {
    const host = new BrowserHost(redirect.url);
    const mcp = new McpClient({ name: 'browser-host', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      authProvider: host,
    });
    await expect(mcp.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const context = await browser.newContext();
    const back = await signInAsPerson(
      await context.newPage(),
      host.authorizationUrls[0] as URL,
      redirect.url,
    );
    await context.close();
    expect(back.searchParams.get('iss')).toBe(origin);
    expect(back.searchParams.get('state')).toBe(
      host.authorizationUrls[0]?.searchParams.get('state'),
    );
    expect(back.searchParams.get('code')).toBeTruthy();
  });

  it('remembers a consent per person and host: asked again only for another host', async () => {
    const register = async (name: string) =>
      (await registerPublicClient(origin, redirect.url, name)).clientId;
    const authorize = (clientId: string) => authorizationUrl(origin, clientId, redirect.url);
    const first = await register('First Host');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const pages: string[] = [];
      page.on('load', () => pages.push(new URL(page.url()).pathname));
      await signInAsPerson(page, authorize(first), redirect.url);
      const upstreamVisits = upstream.authorizationRequests.length;
      // The same host again: straight back with a code, no page shown, nobody sent upstream.
      pages.length = 0;
      await page.goto(authorize(first).href);
      expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
      expect(pages).toEqual(['/callback']);
      // Another host: the front asks, naming it, but the person is not sent upstream again.
      await page.goto(authorize(await register('Second Host')).href);
      expect(await page.locator('#client-name').textContent()).toBe('Second Host');
      const back = await signInAsPerson(page, new URL(page.url()), redirect.url);
      expect(back.searchParams.get('code')).toBeTruthy();
      expect(upstream.authorizationRequests.length).toBe(upstreamVisits);
    } finally {
      await context.close();
    }
  });
});
