import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import {
  callToolInInspector,
  connectInInspector,
  inspectorTools,
  type McpInspector,
  openInspector,
  signInAtOidcProvider,
  startMcpInspector,
} from '../../helpers/mcp-inspector.js';
import { type SignInFront, startSignInFront } from '../../helpers/sign-in-front.js';
import { launchChromium } from '../../helpers/sign-in-host.js';
import type { UpstreamIdentityProvider } from '../../helpers/upstream-identity-provider.js';

const SERVER_KEY = 'sk_front_inspector_6f31';

let front: SignInFront;
let service: MockServer;
let upstream: UpstreamIdentityProvider;
let origin: string;
let inspector: McpInspector;
let browser: Browser;
/** Every request the front received, as `<method> <path>`. */
const frontRequests: string[] = [];

beforeAll(async () => {
  front = await startSignInFront(SERVER_KEY, (req) =>
    frontRequests.push(`${req.method} ${req.url}`),
  );
  ({ service, upstream, origin } = front);
  inspector = await startMcpInspector({ serverUrl: `${origin}/mcp` });
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await inspector?.stop();
  await front?.close();
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
