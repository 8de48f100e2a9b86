/**
 * The token verifier while its issuer's key set fails: tokens the keys it last fetched sign are
 * still verified, one it cannot verify without the issuer is refused 503 (not 401), the key set is
 * asked again only after the outage's cooldown, and the outage is logged once. Against a stand-in
 * issuer on 127.0.0.1 whose key set fails on cue; the clock that jose's and the verifier's
 * cooldowns read (`Date`) is fake, and moved only between requests.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError } from '@modelcontextprotocol/server';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/index.js';
import { createTokenVerifier, OUTAGE_COOLDOWN_MS } from '../../src/mcp/token-verifier.js';

const RESOURCE = 'http://127.0.0.1:1/mcp';
const state = { keysUp: true, keyRequests: 0 };
let server: Server;
let issuer: string;
let signingKey: CryptoKey;

beforeAll(async () => {
  const keys = await generateKeyPair('ES256', { extractable: true });
  signingKey = keys.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }] };
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/.well-known/oauth-authorization-server') {
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      return;
    }
    state.keyRequests++;
    if (state.keysUp) response.end(JSON.stringify(jwks));
    else {
      response.statusCode = 500;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  vi.useRealTimers();
});

function token(kid: string): Promise<string> {
  return new SignJWT({ scope: 'agentchat:read', client_id: 'c', jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(signingKey);
}

/** What verifying `token` came to: `ok`, or the OAuth error code. */
async function outcome(
  verifier: ReturnType<typeof createTokenVerifier>,
  token: string,
): Promise<string> {
  try {
    await verifier.verifyAccessToken(token);
    return 'ok';
  } catch (error) {
    if (error instanceof OAuthError) return error.code;
    throw error;
  }
}

describe('the token verifier with its key set failing', () => {
  it('verifies with the keys it holds, refuses the rest 503, and asks again after the cooldown', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const warnings: string[] = [];
    const logger: Logger = {
      error: () => {},
      warn: (line) => warnings.push(line),
      info: () => {},
      debug: () => {},
    };
    const verifier = createTokenVerifier({ issuer, resource: RESOURCE, logger });
    expect(await outcome(verifier, await token('k1'))).toBe('ok');
    expect(state.keyRequests).toBe(1);

    state.keysUp = false;
    // Past jose's 30 s: a `kid` the keys lack has the key set fetched again, which fails.
    vi.setSystemTime(Date.now() + 31_000);
    expect(await outcome(verifier, await token('k2'))).toBe('temporarily_unavailable');
    expect(state.keyRequests).toBe(2);
    // Meanwhile: the keys held still verify what they sign (new tokens, not cached ones), and
    // junk with another `kid` is refused 503 without asking the issuer again.
    for (let i = 0; i < 20; i++) {
      expect(await outcome(verifier, await token('k1'))).toBe('ok');
      expect(await outcome(verifier, await token(`junk-${i}`))).toBe('temporarily_unavailable');
    }
    expect(state.keyRequests).toBe(2);
    expect(warnings).toHaveLength(1);

    // Once the cooldown is over, the key set is asked again, once.
    vi.setSystemTime(Date.now() + OUTAGE_COOLDOWN_MS);
    expect(await outcome(verifier, await token('k3'))).toBe('temporarily_unavailable');
    expect(state.keyRequests).toBe(3);
    expect(warnings).toHaveLength(2);

    // And when it answers again, an unknown `kid` is a bad token, 401, once more.
    state.keysUp = true;
    vi.setSystemTime(Date.now() + OUTAGE_COOLDOWN_MS);
    expect(await outcome(verifier, await token('k4'))).toBe('invalid_token');
    expect(state.keyRequests).toBe(4);
  });
});
