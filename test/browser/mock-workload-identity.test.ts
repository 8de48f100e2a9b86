/**
 * Workload identity against the mock in a real browser: the mock behind msw's service worker
 * trusts a local issuer whose discovery document and key set the same worker serves, and
 * `workloadIdentity()` trades the issuer's tokens with both grants. The mock's verifier (jose on
 * Web Crypto) and the issuer's signing run in the page, with nothing of Node's.
 */
import { setupWorker } from 'msw/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, OAuthError, workloadIdentity } from '../../src/index.js';
import { createLocalIssuer, createMockService, type LocalIssuer } from '../../src/testing/index.js';

const SUBJECT = 'repo:acme/support-desk:ref:refs/heads/main';
const mock = createMockService({
  baseUrl: `${location.origin}/api`,
  trustedIssuers: ['https://issuer.agentchat.test'],
});
let issuer: LocalIssuer;
let worker: ReturnType<typeof setupWorker>;

beforeAll(async () => {
  issuer = await createLocalIssuer({ issuer: 'https://issuer.agentchat.test' });
  worker = setupWorker(...mock.handlers, ...issuer.handlers);
  await worker.start({
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledFrame: 'bypass',
    quiet: true,
  });
});
afterAll(() => worker?.stop());

describe('workload identity in the browser (msw service worker)', () => {
  const tokenUrl = `${mock.baseUrl}/oauth/token`;

  it.each(['jwt-bearer', 'token-exchange'] as const)(
    "trades a local issuer's identity token with the %s grant",
    async (grant) => {
      const client = new Client({
        baseUrl: mock.baseUrl,
        dangerouslyAllowBrowser: true, // a test page: the token is the local issuer's
        apiKey: workloadIdentity({
          tokenUrl,
          grant,
          identityToken: () => issuer.signIdentityToken({ subject: SUBJECT, audience: tokenUrl }),
        }),
      });

      await client.projects.create({ name: 'In a page', agentId: 'agent_1' });
      expect(mock.oauth.tokens().at(-1)).toMatchObject({
        grant,
        identity: { issuer: issuer.issuer, subject: SUBJECT },
      });
    },
  );

  it('refuses a token for another audience with invalid_grant naming the check', async () => {
    const client = new Client({
      baseUrl: mock.baseUrl,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
      apiKey: workloadIdentity({
        tokenUrl,
        identityToken: () => issuer.signIdentityToken({ subject: SUBJECT, audience: 'other' }),
      }),
    });

    const error = await client.projects.create({ name: 'No', agentId: 'a' }).catch((e) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ error: 'invalid_grant' });
    expect((error as OAuthError).errorDescription).toContain('audience (aud) is ["other"]');
  });
});
