/**
 * `agentchat-mcp --http --upstream-issuer` (a child process) with a proxy set by the environment
 * (`NODE_USE_ENV_PROXY=1`, `HTTP_PROXY`), as docs/networks.md recommends: the front's own
 * requests to its loopback port never go to the proxy. A real tinyproxy, one that refuses
 * everything (403) and one that forwards and logs: the front starts under each, signs a person
 * in through Chromium, and the proxy's log holds nothing of the front's own traffic.
 */
import type { Server } from 'node:http';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { startFrontProcess } from '../helpers/front-process.js';
import { signInThroughFront } from '../helpers/sign-in-front.js';
import { launchChromium, startRedirectTarget } from '../helpers/sign-in-host.js';
import { startTinyproxy } from '../helpers/tinyproxy.js';

const SERVER_KEY = 'sk_front_proxy_41c7';

let service: MockServer;
let browser: Browser;
let redirect: { url: string; server: Server };

beforeAll(async () => {
  [service, browser, redirect] = await Promise.all([
    startMockServer({ apiKeys: [SERVER_KEY] }),
    launchChromium(),
    startRedirectTarget(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  redirect?.server.close();
  await service?.close();
});

/**
 * Starts the front on a free port of 127.0.0.1 with `proxyEnv`, signs a person in, and resolves
 * with the front's origin, the upstream's, and the front's standard error.
 */
async function signInUnderProxy(proxyEnv: Record<string, string>) {
  const front = await startFrontProcess({
    serverKey: SERVER_KEY,
    service,
    env: {
      NODE_USE_ENV_PROXY: '1',
      // The service, on 127.0.0.1 too, is reached directly; a proxy is for the internet.
      NO_PROXY: new URL(service.baseUrl).host,
      ...proxyEnv,
    },
  });
  const { origin, upstream } = front;
  try {
    const { tokens } = await signInThroughFront(browser, origin, redirect.url);
    expect(tokens.access_token).toBeTruthy();
    return { origin, upstreamOrigin: upstream.issuer, stderr: front.bin.stderr() };
  } finally {
    await front.close();
  }
}

describe('the sign-in front behind a proxy set by the environment', { timeout: 90_000 }, () => {
  it('starts and signs a person in when the proxy refuses everything (403)', async () => {
    const proxy = await startTinyproxy({ denyAll: true });
    try {
      const { stderr } = await signInUnderProxy({
        HTTP_PROXY: proxy.url,
        // The upstream is on this machine as well; a proxy refusing it would stop the sign-in.
        NO_PROXY: `localhost,${new URL(service.baseUrl).host}`,
      });
      expect(proxy.requests()).toEqual([]);
      expect(stderr).not.toMatch(/TypeError|fetch failed|Proxy response/);
    } finally {
      await proxy.close();
    }
  });

  it('sends the proxy only the upstream identity provider, never its own loopback port', async () => {
    const proxy = await startTinyproxy();
    try {
      const { origin, upstreamOrigin } = await signInUnderProxy({ HTTP_PROXY: proxy.url });
      const requests = proxy.requests();
      // Node's fetch tunnels through the proxy (`CONNECT localhost:<port>`) for every upstream
      // exchange: the proxy was in use, and it saw the upstream only.
      const upstreamHost = new URL(upstreamOrigin).host;
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((line) => !line.includes(upstreamHost))).toEqual([]);
      expect(requests.some((line) => line.includes(new URL(origin).host))).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});
