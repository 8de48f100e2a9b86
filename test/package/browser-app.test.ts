import { type Browser, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { bundleForBrowser, createRequestOf, expectedScenario, useMockServer } from './helpers.js';

const mock = useMockServer();
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
});
afterAll(async () => {
  await browser?.close();
});

describe('a browser app bundled from the tarball, in headless Chromium', () => {
  it('runs the scenario against the mock HTTP server, with dangerouslyAllowBrowser', async () => {
    const app = await bundleForBrowser('browser-app.mjs');
    const page = await browser.newPage();
    try {
      // The page is served from the mock server's own origin, so the app's calls are same-origin
      // and need no CORS: only the page and its script are answered here, every API call goes
      // over the network to the mock server.
      const origin = mock.server.url;
      await page.route(`${origin}/app/**`, (route) =>
        route.fulfill(
          route.request().url().endsWith('.js')
            ? { contentType: 'text/javascript', body: app.code }
            : {
                contentType: 'text/html',
                body: '<!doctype html><title>app</title><script type="module" src="app.js"></script>',
              },
        ),
      );
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(String(error)));

      await page.goto(`${origin}/app/index.html`);
      const result = await page
        .waitForFunction(() => (window as { agentchatResult?: unknown }).agentchatResult)
        .then((handle) => handle.jsonValue());

      expect(pageErrors).toEqual([]);
      expect(result).toEqual({
        // Without the option, the constructor refuses to run in a page.
        guard: { isAgentChatError: true, namesOption: true },
        ...expectedScenario('chromium'),
      });
      // Browsers forbid setting User-Agent, so the SDK does not try: the browser's own is sent.
      const userAgent = createRequestOf(mock.server, 'chromium').headers['user-agent'];
      expect(userAgent).toMatch(/Chrom/);
      expect(userAgent).not.toMatch(/agentchat-js/);
    } finally {
      await page.close();
    }
  });
});
