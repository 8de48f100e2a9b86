/**
 * Junk tokens while the issuer is out of reach: `agentchat-mcp --http --authorization-server` (the
 * bin, a process of its own on 127.0.0.1) answers each 503, asks the issuer again once per
 * cooldown rather than once per token, and logs the outage once per cooldown too. The issuer is a
 * stand-in on 127.0.0.1 whose metadata and key set fail or answer as each step needs: no real
 * server can be made to fail on cue.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTAGE_COOLDOWN_MS } from '../../src/mcp/token-verifier.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  flood,
  type McpServerProcess,
  postMcp,
  startMcpServerProcess,
} from '../helpers/junk-tokens.js';

const SERVER_KEY = 'sk_mcp_outage_0b7d';
const TOKENS = 300;

/** What the stand-in issuer answers, and what it was asked. */
const issuerState = { metadataUp: false, keysUp: false, metadataRequests: 0, keyRequests: 0 };
let issuerServer: Server;
let issuer: string;
let signingKey: CryptoKey;
let service: MockServer;
let mcp: McpServerProcess;

beforeAll(async () => {
  const keys = await generateKeyPair('ES256', { extractable: true });
  signingKey = keys.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }] };
  issuerServer = createServer((request, response) => {
    const json = (body: unknown) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(body));
    };
    if (request.url?.startsWith('/.well-known/')) {
      issuerState.metadataRequests++;
      if (issuerState.metadataUp) return json({ issuer, jwks_uri: `${issuer}/jwks` });
    } else if (request.url === '/jwks') {
      issuerState.keyRequests++;
      if (issuerState.keysUp) return json(jwks);
    }
    response.statusCode = 500;
    response.end();
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
  mcp = await startMcpServerProcess(['--authorization-server', issuer], {
    AGENTCHAT_BASE_URL: service.baseUrl,
    AGENTCHAT_API_KEY: SERVER_KEY,
  });
}, 60_000);
afterAll(async () => {
  await mcp?.stop();
  await service?.close();
  issuerServer?.closeAllConnections();
  await new Promise((resolve) => issuerServer?.close(resolve));
});

/** A token of the stand-in's key, for this server: valid once its key set is reachable. */
function token(kid = 'k1'): Promise<string> {
  return new SignJWT({ scope: 'agentchat:read', client_id: 'c', jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(issuer)
    .setAudience(mcp.url)
    .setExpirationTime('5m')
    .sign(signingKey);
}

const outageLines = () =>
  mcp
    .stderr()
    .split('\n')
    .filter((line) => line.includes('out of reach'));

/** Cooldowns begun within `elapsed` ms, the first one included: how often the issuer may be asked. */
const cooldowns = (elapsed: number) => 1 + Math.ceil(elapsed / OUTAGE_COOLDOWN_MS);

// A flood takes a second or two on a quiet machine, ten times that on a busy one: the bounds count
// the time it took, and the timeout catches a hang.
describe('agentchat-mcp --http --authorization-server with its issuer out of reach', {
  timeout: 120_000,
}, () => {
  it('answers a flood 503 while the issuer’s metadata fails, asking once per cooldown', async () => {
    const started = performance.now();
    const result = await flood(mcp.url, TOKENS, () => token());
    const elapsed = performance.now() - started;

    expect(result.statuses).toEqual({ 503: TOKENS });
    // Discovery asks up to two well-known URLs, each tried twice, per attempt.
    expect(issuerState.metadataRequests).toBeLessThanOrEqual(4 * cooldowns(elapsed));
    expect(outageLines().length).toBeLessThanOrEqual(cooldowns(elapsed));
    expect(service.service.requests).toEqual([]);
  });

  it('answers a flood 503 while the key set fails, fetching it once per cooldown', async () => {
    issuerState.metadataUp = true;
    const linesBefore = outageLines().length;
    // Once the metadata's cooldown is over, the metadata is read and the key set tried.
    await expect
      .poll(async () => {
        await postMcp(mcp.url, undefined, await token());
        return issuerState.keyRequests;
      })
      .toBeGreaterThan(0);
    const fetchesBefore = issuerState.keyRequests;
    const started = performance.now();
    const result = await flood(mcp.url, TOKENS, () => token());
    const elapsed = performance.now() - started;

    expect(result.statuses).toEqual({ 503: TOKENS });
    expect(issuerState.keyRequests - fetchesBefore).toBeLessThanOrEqual(cooldowns(elapsed));
    expect(outageLines().length - linesBefore).toBeLessThanOrEqual(1 + cooldowns(elapsed));
    expect(service.service.requests).toEqual([]);
  });

  it('serves a valid token once the issuer is back and the cooldown over', async () => {
    issuerState.keysUp = true;
    await expect
      .poll(async () => (await postMcp(mcp.url, undefined, await token())).status)
      .toBe(200);
    // And junk is 401 again, not 503.
    const result = await flood(mcp.url, 50, () => token('unknown'));
    expect(result.statuses).toEqual({ 401: 50 });
  });
});
