/**
 * Client ID Metadata Documents at the sign-in front, as `agentchat-mcp --http --upstream-issuer`
 * runs (a child process trusting a test-made certificate through NODE_EXTRA_CA_CERTS): the
 * official MCP client identified by its `clientMetadataUrl` (an https URL served by the test)
 * signs a person in through Chromium and calls the tools; documents whose `client_id` differs,
 * that redirect, that are past 64 KiB, or that sit on a special-use address not named as this
 * machine are refused with an error page, and no redirect.
 */
import type { Server } from 'node:http';
import {
  Client as McpClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import { type DocumentServer, startDocumentServer } from '../../helpers/document-server.js';
import { type FrontProcess, startFrontProcess } from '../../helpers/front-process.js';
import { callTool, listedToolNames } from '../../helpers/mcp-client.js';
import type { McpHttpProcess } from '../../helpers/mcp-http.js';
import {
  authorizationUrl,
  BrowserHost,
  launchChromium,
  signInAsPerson,
  startRedirectTarget,
} from '../../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_cimd_1a7d';
/**
 * A redirect URI the front refuses (it has a fragment), which its error page quotes: a
 * right-to-left override and Unicode tags (U+E0000 block) spelling words nobody would see.
 */
const HOSTILE_REDIRECT_URI = `https://claude.ai/cb\u202e#${[...'Allow it'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}`;

let signInFront: FrontProcess;
let service: MockServer;
let front: McpHttpProcess;
let origin: string;
let browser: Browser;
let redirect: { url: string; server: Server };
let documents: DocumentServer;
let documentsOrigin: string;
let documentRequests: readonly string[];

function metadataDocument(url: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: url,
    client_name: 'CIMD Host',
    redirect_uris: [redirect.url],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  };
}

beforeAll(async () => {
  redirect = await startRedirectTarget();
  documents = await startDocumentServer('127.0.0.1', (req, res) => {
    const url = `${documentsOrigin}${req.url}`;
    const json = (body: unknown) =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' })
        .end(JSON.stringify(body));
    if (req.url === '/host.json') return json(metadataDocument(url));
    if (req.url === '/mismatch.json') {
      return json(metadataDocument(`${documentsOrigin}/host.json`));
    }
    if (req.url === '/redirects.json') {
      return res.writeHead(302, { location: '/host.json' }).end();
    }
    if (req.url === '/hostile-redirect.json') {
      return json(metadataDocument(url, { redirect_uris: [HOSTILE_REDIRECT_URI] }));
    }
    if (req.url === '/huge.json') {
      return json(metadataDocument(url, { padding: 'x'.repeat(80 * 1024) }));
    }
    res.writeHead(404).end();
  });
  documentsOrigin = documents.origin;
  documentRequests = documents.requests;
  signInFront = await startFrontProcess({
    serverKey: SERVER_KEY,
    env: { NODE_EXTRA_CA_CERTS: documents.certificate.certFile },
  });
  service = signInFront.service;
  front = signInFront.bin;
  origin = signInFront.origin;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await signInFront?.close();
  await documents?.close();
  redirect?.server.close();
});

describe('Client ID Metadata Documents at the sign-in front', { timeout: 90_000 }, () => {
  it('identify the official MCP client by its clientMetadataUrl: signed in, tools called', async () => {
    expect(front.stderr()).toContain(`serving MCP at ${origin}/mcp`);
    const host = new BrowserHost(redirect.url, {
      clientMetadataUrl: `${documentsOrigin}/host.json`,
    });
    const url = new URL(`${origin}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: host });
    await expect(
      new McpClient({ name: 'cimd-host', version: '1.0.0' }).connect(first),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = host.authorizationUrls.at(-1) as URL;
    expect(authorizationUrl.searchParams.get('client_id')).toBe(`${documentsOrigin}/host.json`);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(authorizationUrl.href);
    // The consent page names the client as its document does.
    expect(await page.locator('#client-name').textContent()).toBe('CIMD Host');
    const back = await signInAsPerson(page, authorizationUrl, redirect.url);
    await context.close();
    await first.finishAuth(back.searchParams);
    const mcp = new McpClient({ name: 'cimd-host', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(url, { authProvider: host }));
    expect(await listedToolNames(mcp)).toContain('get_project');
    const created = await callTool(mcp, 'create_project', { name: 'By CIMD', agentId: 'agent_1' });
    expect(created.isError).toBeFalsy();
    await mcp.close();
    expect(documentRequests).toContain('/host.json');
    expect(
      service.service.requests.every((r) => r.headers.authorization === `Bearer ${SERVER_KEY}`),
    ).toBe(true);
  });

  it.each([
    ['whose client_id differs from its URL', '/mismatch.json'],
    ['that redirects', '/redirects.json'],
    ['past 64 KiB', '/huge.json'],
  ])('refuses a document %s: an error page, no redirect', async (_name, path) => {
    const clientId = `${documentsOrigin}${path}`;
    const before = documentRequests.length;
    const response = await fetch(authorizationUrl(origin, clientId, redirect.url), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toMatch(/invalid_client/);
    // Fetched (oidc-provider keeps no failure, so a request may look it up twice), never followed.
    const fetched = documentRequests.slice(before);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((request) => request === path)).toBe(true);
  });

  it('shows the hidden characters of a refused redirect URI on the error page that quotes it', async () => {
    const clientId = `${documentsOrigin}/hostile-redirect.json`;
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const response = await page.goto(authorizationUrl(origin, clientId, redirect.url).href);
      expect(response?.status(), (await page.locator('main').textContent()) ?? '').toBe(400);
      const shown = `https://claude.ai/cb\\u{202E}#${[...'Allow it'].map((c) => `\\u{E00${c.charCodeAt(0).toString(16).toUpperCase()}}`).join('')}`;
      const description = page.locator('#error-description');
      expect(await description.textContent()).toContain(shown);
      // What the person reads holds no hidden character, and each escape is drawn.
      // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn is what is checked
      expect(await page.locator('main').innerText()).not.toMatch(/[\p{Cf}]/u);
      const marks = await description
        .locator('.hidden-char')
        .evaluateAll((spans) => spans.map((span) => span.getBoundingClientRect().width));
      expect(marks.length).toBe(9);
      expect(marks.every((width) => width > 0)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('refuses a document on a special-use address not named as this machine, fetching nothing', async () => {
    const port = new URL(documentsOrigin).port;
    // 127.0.0.1 in IPv4-mapped form: reachable, but not one of the names of this machine, so the
    // engine's own check refuses the address when it connects.
    const clientId = `https://[::ffff:127.0.0.1]:${port}/host.json`;
    const before = documentRequests.length;
    const response = await fetch(authorizationUrl(origin, clientId, redirect.url), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(documentRequests.length).toBe(before);
  });
});
