import { type Browser, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { runAppPage, type ServedApps, serveApps, startMockForApps } from '../helpers/app-page.js';
import { bundleForBrowser, expectedScenario, type MockBin } from '../helpers/package-consumer.js';

let browser: Browser;
let mock: MockBin;
let app: ServedApps;

beforeAll(async () => {
  const [launched, { code }] = await Promise.all([
    chromium.launch({ ...chromiumLaunchOptions, headless: true }),
    bundleForBrowser('browser-app.mjs'),
  ]);
  browser = launched;
  app = await serveApps({ app: code });
  // The mock allows the app's origin and no other.
  mock = await startMockForApps(app.origin);
});
afterAll(async () => {
  await browser?.close();
  await mock?.stop();
  await app?.close();
});

/** Opens the app at `origin` and waits for what it found. */
function runApp(origin: string) {
  return runAppPage(
    browser,
    `${origin}/app/?baseUrl=${encodeURIComponent(mock.baseUrl)}`,
    mock.baseUrl,
  );
}

describe('a browser app bundled from the tarball, in headless Chromium', () => {
  it('calls `agentchat-mock` on another origin through CORS, with dangerouslyAllowBrowser', async () => {
    expect(new URL(mock.baseUrl).origin).not.toBe(app.origin);

    const { result, userAgents } = await runApp(app.origin);

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
    const otherOrigin = app.origin.replace('localhost', '127.0.0.1');

    const { result } = await runApp(otherOrigin);

    expect((result as { error?: string }).error).toMatch(
      /^APIConnectionError: POST \/v1\/projects could not reach the service/,
    );
  });
});
