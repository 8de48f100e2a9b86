import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import {
  bundleForBrowser,
  expectedScenario,
  type MockBin,
  startMockBin,
} from '../helpers/package-consumer.js';

let browser: Browser;
let mock: MockBin;
let appServer: Server;
/** Where the app is served, as a dev server on this machine would serve it (Vite's :5173). */
let appOrigin: string;

/**
 * A static server for the bundled app, on a port of its own: its origin is not the mock's, so
 * every API call is cross-origin. It is a real server on loopback, as a dev server is; a page
 * the browser could not place on this machine would also need Chromium's local network
 * permission to reach the mock.
 */
async function serveApp(code: string): Promise<Server> {
  const server = createServer((req, res) => {
    const script = new URL(req.url ?? '/', 'http://app').pathname.endsWith('.js');
    res.setHeader('content-type', script ? 'text/javascript' : 'text/html');
    res.end(
      script
        ? code
        : '<!doctype html><title>app</title><script type="module" src="/app.js"></script>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  const [launched, { code }] = await Promise.all([
    chromium.launch({ ...chromiumLaunchOptions, headless: true }),
    bundleForBrowser('browser-app.mjs'),
  ]);
  browser = launched;
  appServer = await serveApp(code);
  appOrigin = `http://localhost:${(appServer.address() as AddressInfo).port}`;
  // The mock allows the app's origin and no other.
  mock = await startMockBin(inject('consumerDir'), [
    '--port',
    '0',
    '--key',
    'sk_test_package',
    '--cors-origin',
    appOrigin,
  ]);
});
afterAll(async () => {
  await browser?.close();
  await mock?.stop();
  appServer?.closeAllConnections();
  await new Promise((resolve) => appServer?.close(resolve));
});

/** Opens the app at `origin` and waits for what it found. */
async function runApp(origin: string): Promise<{ result: unknown; userAgents: string[] }> {
  const page = await browser.newPage();
  try {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    const userAgents: Promise<string | undefined>[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(mock.baseUrl)) {
        userAgents.push(request.allHeaders().then((headers) => headers['user-agent']));
      }
    });
    await page.goto(`${origin}/index.html?baseUrl=${encodeURIComponent(mock.baseUrl)}`);
    const result = await page
      .waitForFunction(() => (window as { agentchatResult?: unknown }).agentchatResult)
      .then((handle) => handle.jsonValue());
    expect(pageErrors).toEqual([]);
    return { result, userAgents: (await Promise.all(userAgents)).map(String) };
  } finally {
    await page.close();
  }
}

describe('a browser app bundled from the tarball, in headless Chromium', () => {
  it('calls `agentchat-mock` on another origin through CORS, with dangerouslyAllowBrowser', async () => {
    expect(new URL(mock.baseUrl).origin).not.toBe(appOrigin);

    const { result, userAgents } = await runApp(appOrigin);

    expect(result).toEqual({
      // Without the option, the constructor refuses to run in a page.
      guard: { isAgentChatError: true, namesOption: true },
      ...expectedScenario('chromium'),
    });
    // Browsers forbid setting User-Agent, so the SDK does not try: the browser's own is sent.
    expect(userAgents.length).toBeGreaterThan(0);
    for (const userAgent of userAgents) {
      expect(userAgent).toMatch(/Chrom/);
      expect(userAgent).not.toMatch(/agentchat-js/);
    }
  });

  it('is stopped by the browser on an origin the mock does not allow', async () => {
    // The same app under the address rather than the name: another origin.
    const otherOrigin = appOrigin.replace('localhost', '127.0.0.1');

    const { result } = await runApp(otherOrigin);

    expect((result as { error?: string }).error).toMatch(
      /^APIConnectionError: POST \/v1\/projects could not reach the service/,
    );
  });
});
