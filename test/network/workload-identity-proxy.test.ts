/**
 * Workload identity behind a company's proxy, for real: Debian's tinyproxy on a loopback port, and
 * every fetch the provider makes (the identity source's request to its platform, issuer discovery,
 * the token request) sent through it by `fetchOptions`, then the service called with the token.
 */
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { Client, googleIdentityToken, workloadIdentity } from '../../src/index.js';
import {
  type AuthorizationServer,
  serverScope,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { WORKLOAD_CLIENT_ID } from '../helpers/federation-grants.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';
import { startVerifyingService, type VerifyingService } from '../helpers/verifying-service.js';
import {
  METADATA_IDENTITY_PATH,
  startWorkloadPlatform,
  type WorkloadPlatform,
} from '../helpers/workload-platform.js';

const AUDIENCE = 'https://auth.agentchat.test';
let proxy: Tinyproxy;
let platform: WorkloadPlatform;
let server: AuthorizationServer;
let service: VerifyingService;

beforeAll(async () => {
  [proxy, platform] = await Promise.all([startTinyproxy(), startWorkloadPlatform()]);
  server = await startAuthorizationServer({
    trust: { issuer: platform.issuer, jwksUri: platform.jwksUri, audience: AUDIENCE },
  });
  service = await startVerifyingService(server.issuer, server.resource);
});
afterAll(async () => {
  await Promise.all([proxy?.close(), platform?.close(), server?.close(), service?.close()]);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

it('sends the metadata request, discovery and the token request through the proxy', async () => {
  vi.stubEnv('GCE_METADATA_HOST', platform.host);
  const from = proxy.requests().length;
  const dispatcher = new ProxyAgent(proxy.url);
  try {
    const apiKey = workloadIdentity({
      issuer: server.issuer,
      clientId: WORKLOAD_CLIENT_ID,
      identityToken: googleIdentityToken({ audience: AUDIENCE }),
      scope: serverScope,
      resource: server.resource,
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    const client = new Client({ apiKey, baseUrl: service.baseUrl });
    const project = await client.projects.create({ name: 'Behind the proxy', agentId: 'a' });
    expect(project.name).toBe('Behind the proxy');
    const forwarded = proxy.requests().slice(from);
    const to = (origin: string, path: string) =>
      forwarded.filter((line) => line.includes(`${new URL(origin).host}${path}`));
    expect(to(platform.issuer, METADATA_IDENTITY_PATH)).toHaveLength(1);
    expect(to(server.issuer, '/.well-known/oauth-authorization-server')).toHaveLength(1);
    expect(to(server.issuer, '/token')).toHaveLength(1);
  } finally {
    await dispatcher.close();
  }
});
