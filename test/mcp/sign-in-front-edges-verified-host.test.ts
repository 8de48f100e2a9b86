/**
 * The consent page's "Verified host" badge, through a real sign-in: a host identified by a Client
 * ID Metadata Document served over https on this machine (a certificate made for the run, which
 * `agentchat-mcp` trusts through `NODE_EXTRA_CA_CERTS`, as docs/mcp.md says for a private CA)
 * signs a person in through Chromium. The consent page shows the badge with the document's host,
 * the code is redeemed with the document's URL as `client_id`, and the token names it. A host that
 * registered itself under the same name is shown as unverified.
 */
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { freePort } from '../helpers/free-port.js';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import { tsxLoader } from '../helpers/run-process.js';
import { signInThroughFront } from '../helpers/sign-in-front.js';
import { launchChromium, startRedirectTarget } from '../helpers/sign-in-host.js';
import { makeTestCertificate, type TestCertificate } from '../helpers/test-certificate.js';
import {
  startUpstreamIdentityProvider,
  type UpstreamIdentityProvider,
} from '../helpers/upstream-identity-provider.js';

const SERVER_KEY = 'sk_front_edges_verified_8b2c';
const HOST_NAME = 'Browser Host';
const repo = fileURLToPath(new URL('../..', import.meta.url));

let certificate: TestCertificate;
let service: MockServer;
let upstream: UpstreamIdentityProvider;
let front: McpHttpProcess;
let origin: string;
let browser: Browser;
let redirect: { url: string; server: { close(): void } };
/** The host's metadata document server, https on this machine. */
let documents: Server;
let documentUrl: string;
const documentRequests: string[] = [];

beforeAll(async () => {
  certificate = await makeTestCertificate();
  [service, redirect, browser] = await Promise.all([
    startMockServer({ apiKeys: [SERVER_KEY] }),
    startRedirectTarget(),
    launchChromium(),
  ]);
  documents = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    documentRequests.push(req.url ?? '');
    if (req.url !== '/oauth/client.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: HOST_NAME,
        redirect_uris: [redirect.url],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  // Every address of this machine (`::`, dual-stack), whichever `localhost` resolves to first.
  await new Promise<void>((resolve) => documents.listen(0, '::', resolve));
  documentUrl = `https://localhost:${(documents.address() as AddressInfo).port}/oauth/client.json`;

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  upstream = await startUpstreamIdentityProvider(origin);
  front = await startMcpHttp(
    process.execPath,
    [
      ...tsxLoader,
      'src/mcp/bin.ts',
      '--http',
      '--port',
      String(port),
      '--upstream-issuer',
      upstream.issuer,
      '--upstream-client-id',
      upstream.clientId,
    ],
    {
      cwd: repo,
      env: {
        PATH: process.env.PATH,
        NODE_EXTRA_CA_CERTS: certificate.certFile,
        AGENTCHAT_BASE_URL: service.baseUrl,
        AGENTCHAT_API_KEY: SERVER_KEY,
        AGENTCHAT_UPSTREAM_CLIENT_SECRET: upstream.clientSecret,
      },
    },
  );
}, 60_000);
afterAll(async () => {
  await front?.stop();
  await browser?.close();
  documents?.closeAllConnections();
  documents?.close();
  redirect?.server.close();
  await upstream?.close();
  await service?.close();
  await certificate?.remove();
});

/** What the consent page says of the host. */
async function identityOf(page: Page) {
  return {
    name: await page.locator('#client-name').textContent(),
    identity: await page.locator('#client-identity').textContent(),
    host: (await page.locator('#client-host').count())
      ? await page.locator('#client-host').textContent()
      : null,
  };
}

describe('a host identified by its metadata document', { timeout: 60_000 }, () => {
  it('is shown as its verified host, and signs the person in', async () => {
    let seen: Awaited<ReturnType<typeof identityOf>> | undefined;
    const { clientId, tokens } = await signInThroughFront(browser, origin, redirect.url, {
      clientId: documentUrl,
      atConsent: async (page) => {
        seen = await identityOf(page);
      },
    });
    expect(seen).toEqual({
      name: HOST_NAME,
      identity: expect.stringMatching(/^Verified host The application is published at /),
      host: new URL(documentUrl).host,
    });
    expect(seen?.identity).not.toMatch(/Unverified/);
    // The document was fetched from its server, and the token is the document's client's.
    expect(documentRequests).toContain('/oauth/client.json');
    expect(clientId).toBe(documentUrl);
    expect(decodeJwt(tokens.access_token).client_id).toBe(documentUrl);
  });

  it('is not confused with a host that registered itself under the same name', async () => {
    let seen: Awaited<ReturnType<typeof identityOf>> | undefined;
    await signInThroughFront(browser, origin, redirect.url, {
      clientMetadata: { client_name: HOST_NAME },
      atConsent: async (page) => {
        seen = await identityOf(page);
      },
    });
    expect(seen).toEqual({
      name: HOST_NAME,
      identity: expect.stringMatching(/^Unverified The application chose this name itself/),
      host: null,
    });
    expect(seen?.identity).not.toMatch(/Verified host/);
  });
});
