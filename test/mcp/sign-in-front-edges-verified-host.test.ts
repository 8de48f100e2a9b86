/**
 * The consent page's "Verified host" badge, through a real sign-in: a host identified by a Client
 * ID Metadata Document served over https on this machine (a certificate made for the run, which
 * `agentchat-mcp` trusts through `NODE_EXTRA_CA_CERTS`, as docs/mcp.md says for a private CA)
 * signs a person in through Chromium. The consent page shows the badge with the document's host,
 * the code is redeemed with the document's URL as `client_id`, and the token names it. A host that
 * registered itself under the same name is shown as unverified.
 */
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentServer, startDocumentServer } from '../helpers/document-server.js';
import { type FrontProcess, startFrontProcess } from '../helpers/front-process.js';
import { signInThroughFront } from '../helpers/sign-in-front.js';
import { launchChromium, startRedirectTarget } from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_edges_verified_8b2c';
const HOST_NAME = 'Browser Host';

let front: FrontProcess;
let origin: string;
let browser: Browser;
let redirect: { url: string; server: { close(): void } };
/** The host's metadata document server, https on this machine. */
let documents: DocumentServer;
let documentUrl: string;
let documentRequests: readonly string[];

beforeAll(async () => {
  [redirect, browser] = await Promise.all([startRedirectTarget(), launchChromium()]);
  // Every address of this machine (`::`, dual-stack), whichever `localhost` resolves to first.
  documents = await startDocumentServer('::', (req, res) => {
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
  documentUrl = `${documents.origin}/oauth/client.json`;
  documentRequests = documents.requests;
  front = await startFrontProcess({
    serverKey: SERVER_KEY,
    env: { NODE_EXTRA_CA_CERTS: documents.certificate.certFile },
  });
  origin = front.origin;
}, 60_000);
afterAll(async () => {
  await front?.close();
  await browser?.close();
  await documents?.close();
  redirect?.server.close();
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
