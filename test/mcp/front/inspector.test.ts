/**
 * The MCP Inspector's web UI (v2) in real Chromium against the sign-in front: it registers itself
 * with the front, the person allows it on the front's consent page and signs in at the upstream
 * identity provider's own pages, and the Inspector lists and calls the tools; the service sees
 * only the server's own key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/index.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../../../src/mcp/index.js';
import { nodeListener } from '../../../src/mcp/node-listener.js';
import { type MockServer, startMockServer } from '../../../src/testing/index.js';
import {
  callToolInInspector,
  connectInInspector,
  inspectorTools,
  type McpInspector,
  openInspector,
  signInAtOidcProvider,
  startMcpInspector,
} from '../../helpers/mcp-inspector.js';
import { launchChromium } from '../../helpers/sign-in-host.js';
import {
  startUpstreamIdentityProvider,
  type UpstreamIdentityProvider,
} from '../../helpers/upstream-identity-provider.js';

const SERVER_KEY = 'sk_front_inspector_6f31';

let service: MockServer;
let upstream: UpstreamIdentityProvider;
let server: Server;
let origin: string;
let handler: McpHttpHandler;
let inspector: McpInspector;
let browser: Browser;
/** Every request the front received, as `<method> <path>`. */
const frontRequests: string[] = [];

beforeAll(async () => {
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream = await startUpstreamIdentityProvider(origin);
  handler = createMcpHttpHandler({
    client: new Client({ apiKey: SERVER_KEY, baseUrl: service.baseUrl }),
    resource: `${origin}/mcp`,
    upstreamIssuer: upstream.issuer,
    upstreamClientId: upstream.clientId,
    upstreamClientSecret: upstream.clientSecret,
  });
  server.on('request', (req) => frontRequests.push(`${req.method} ${req.url}`));
  server.on(
    'request',
    nodeListener(handler, (error) => console.error(error)),
  );
  inspector = await startMcpInspector({ serverUrl: `${origin}/mcp` });
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await inspector?.stop();
  await handler?.close();
  server?.closeAllConnections();
  server?.close();
  await upstream?.close();
  await service?.close();
});

/** The person: Allow at the front's consent page, then the upstream's login and consent. */
async function signIn(page: Page): Promise<void> {
  await page.waitForURL((url) => url.origin === origin && url.pathname.startsWith('/interaction/'));
  expect(await page.locator('#redirect-uri').textContent()).toBe(inspector.redirectUri);
  await page.getByRole('button', { name: 'Allow' }).click();
  await signInAtOidcProvider(page, 'alice');
}

describe('the MCP Inspector web UI with the sign-in front', { timeout: 120_000 }, () => {
  it('registers, has the person consent and sign in upstream, then lists and calls the tools', async () => {
    const opened = await openInspector(browser, inspector);
    try {
      await connectInInspector(opened, signIn);
      // It registered itself with the front, and the person went through the upstream.
      // The Inspector registers from its own backend, then sends the page to the front.
      expect(frontRequests).toContain('POST /register');
      expect(
        opened.requests.some((request) => request.startsWith(`GET ${upstream.issuer}/auth?`)),
      ).toBe(true);
      expect(await inspectorTools(opened)).toEqual([
        'create_project',
        'get_project',
        'send_message',
      ]);
      const created = await callToolInInspector(opened, 'create_project', {
        name: 'From the Inspector',
        agentId: 'agent_1',
      });
      expect(created).toContain('From the Inspector');
    } finally {
      await opened.close();
    }
    expect(service.service.requests.length).toBeGreaterThan(0);
    expect(
      service.service.requests.every(
        (request) => request.headers.authorization === `Bearer ${SERVER_KEY}`,
      ),
    ).toBe(true);
  });
});
