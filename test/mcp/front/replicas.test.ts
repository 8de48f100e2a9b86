/**
 * Two replicas of the sign-in front behind a round-robin load balancer, sharing a real Redis
 * (Debian's redis-server) and one signing key: a person signs in with each step served by
 * whichever replica the balancer picks, a token issued by one is accepted by the other, which
 * refreshes it, and a reused refresh token revokes its family on both.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client as McpClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair } from 'jose';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/index.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../../../src/mcp/index.js';
import { nodeListener } from '../../../src/mcp/node-listener.js';
import { type MockServer, startMockServer } from '../../../src/testing/index.js';
import { listedToolNames } from '../../helpers/mcp-client.js';
import { type RedisServer, startRedisServer } from '../../helpers/redis-server.js';
import {
  BrowserHost,
  launchChromium,
  signInAsPerson,
  startRedirectTarget,
} from '../../helpers/sign-in-host.js';
import {
  startUpstreamIdentityProvider,
  type UpstreamIdentityProvider,
} from '../../helpers/upstream-identity-provider.js';

const SERVER_KEY = 'sk_front_replicas_77c0';

let service: MockServer;
let redis: RedisServer;
let upstream: UpstreamIdentityProvider;
let balancer: Server;
let origin: string;
let replicas: McpHttpHandler[];
let browser: Browser;
let redirect: { url: string; server: Server };
/** Which replica served each request, in order. */
const served: number[] = [];

beforeAll(async () => {
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
  redis = await startRedisServer();
  balancer = createServer();
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
  upstream = await startUpstreamIdentityProvider(origin);
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = JSON.stringify(await exportJWK(privateKey));
  replicas = [0, 1].map(() =>
    createMcpHttpHandler({
      client: new Client({ apiKey: SERVER_KEY, baseUrl: service.baseUrl }),
      resource: `${origin}/mcp`,
      upstreamIssuer: upstream.issuer,
      upstreamClientId: upstream.clientId,
      upstreamClientSecret: upstream.clientSecret,
      signingKey,
      store: redis.url,
    }),
  );
  const listeners = replicas.map((replica) =>
    nodeListener(replica, (error) => console.error(error)),
  );
  let next = 0;
  balancer.on('request', (req, res) => {
    const index = next++ % 2;
    served.push(index);
    void listeners[index]?.(req, res);
  });
  redirect = await startRedirectTarget();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  balancer?.closeAllConnections();
  balancer?.close();
  redirect?.server.close();
  await upstream?.close();
  await redis?.kill();
  await service?.close();
});

describe('replicas of the sign-in front sharing Redis', { timeout: 90_000 }, () => {
  it('sign a person in across both, accept each other’s tokens, and refresh them', async () => {
    const host = new BrowserHost(redirect.url);
    const url = new URL(`${origin}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: host });
    await expect(
      new McpClient({ name: 'replicated-host', version: '1.0.0' }).connect(first),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const context = await browser.newContext();
    const back = await signInAsPerson(
      await context.newPage(),
      host.authorizationUrls.at(-1) as URL,
      redirect.url,
    );
    await context.close();
    await first.finishAuth(back.searchParams);
    // Both replicas took part in the sign-in.
    expect(new Set(served)).toEqual(new Set([0, 1]));

    const token = host.savedTokens?.access_token as string;
    for (const replica of replicas) {
      const mcp = new McpClient({ name: 'replicated-host', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(url, {
          fetch: (input, init) => replica.fetch(new Request(input, init)),
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      expect(await listedToolNames(mcp)).toContain('create_project');
      await mcp.close();
    }

    // Refreshed at each replica in turn: the rotation is shared.
    const refresh = async (replica: McpHttpHandler, refreshToken: string) => {
      const response = await replica.fetch(
        new Request(`${origin}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            client_id: host.clientInfo?.client_id as string,
            refresh_token: refreshToken,
          }),
        }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    };
    const [a, b] = replicas as [McpHttpHandler, McpHttpHandler];
    const original = host.savedTokens?.refresh_token as string;
    const atB = await refresh(b, original);
    expect(atB.status).toBe(200);
    const atA = await refresh(a, atB.body.refresh_token as string);
    expect(atA.status).toBe(200);
    // The first one, reused at A: refused, and the family revoked for B too.
    expect((await refresh(a, original)).body.error).toBe('invalid_grant');
    expect((await refresh(b, atA.body.refresh_token as string)).body.error).toBe('invalid_grant');
  });
});
