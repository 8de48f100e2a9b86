/**
 * Bundled browser apps served and opened as a user would: a static server on loopback and a
 * Chromium page that waits for what the app found. Shared by the packaging tests that bundle
 * apps from the tarball.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright';
import { expect, inject } from 'vitest';
import { type MockBin, startMockBin } from './package-consumer.js';

/** Apps served by one static server: their origin and how to stop it. */
export interface ServedApps {
  /** Where they are served, as a dev server on this machine would serve them (Vite's :5173). */
  origin: string;
  close(): Promise<void>;
}

/**
 * A static server on a port of its own, so its origin is not the mock's and every API call is
 * cross-origin. `/<name>/` is a page that loads `scripts[name]` as a module. It is a real server
 * on loopback, as a dev server is; a page the browser could not place on this machine would also
 * need Chromium's local network permission to reach the mock.
 */
export async function serveApps(scripts: Record<string, string>): Promise<ServedApps> {
  const server = createServer((req, res) => {
    const [, name = '', file = ''] = new URL(req.url ?? '/', 'http://app').pathname.split('/');
    const script = scripts[name];
    if (script === undefined) {
      res.writeHead(404).end();
    } else if (file === 'app.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end(script);
    } else {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>${name}</title><script type="module" src="app.js"></script>`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * `agentchat-mock` from the installed tarball, on a port of its own, for apps served on `origin`:
 * it allows that origin and no other, and takes the key the apps send.
 */
export function startMockForApps(origin: string): Promise<MockBin> {
  return startMockBin(inject('consumerDir'), [
    '--port',
    '0',
    '--key',
    'sk_test_package',
    '--allowed-origin',
    origin,
  ]);
}

/**
 * Opens the app page at `url` in a fresh page of `browser` and waits for what it left on
 * `window.agentchatResult`. Fails on any uncaught error in the page. Returns the result and the
 * User-Agent of every request the page sent to `serviceBaseUrl`.
 */
export async function runAppPage(
  browser: Browser,
  url: string,
  serviceBaseUrl: string,
): Promise<{ result: unknown; userAgents: string[] }> {
  const page = await browser.newPage();
  try {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    const userAgents: Promise<string | undefined>[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(serviceBaseUrl)) {
        userAgents.push(request.allHeaders().then((headers) => headers['user-agent']));
      }
    });
    await page.goto(url);
    const result = await page
      .waitForFunction(() => (window as { agentchatResult?: unknown }).agentchatResult)
      .then((handle) => handle.jsonValue());
    expect(pageErrors).toEqual([]);
    return { result, userAgents: (await Promise.all(userAgents)).map(String) };
  } finally {
    await page.close();
  }
}
