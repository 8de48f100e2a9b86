/**
 * The sign-in front put together: the signing key, the store, oidc-provider and the interaction
 * routes behind one node:http listener, reached through the bridge. Loaded on first use by
 * index.ts, so that agentchat/mcp without a front never loads oidc-provider or openid-client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import { startBridge } from './bridge.js';
import { interactionRoutes } from './interactions.js';
import { memoryAdapter } from './memory-store.js';
import type { FrontSettings } from './options.js';
import { createFrontProvider } from './provider.js';
import { derivedSecret, loadSigningKey } from './signing-key.js';
import { createUpstream } from './upstream.js';

/** Registrations allowed in a burst, then one every {@link REGISTRATION_REFILL_MS}. */
export const REGISTRATION_BURST = 20;
export const REGISTRATION_REFILL_MS = 3_000;

/** The loaded front. */
export interface FrontEngine {
  fetch(request: Request): Promise<Response>;
  /** Lets go of the store (a Redis connection). */
  close(): Promise<void>;
  /** The front's public key, for the verifier. */
  readonly keySet: JWTVerifyGetKey;
}

/**
 * Loads the front.
 *
 * @example
 * ```ts
 * const engine = await createFrontEngine(settings);
 * const response = await engine.fetch(request);
 * ```
 */
export async function createFrontEngine(settings: FrontSettings): Promise<FrontEngine> {
  const signingKey = await loadSigningKey(settings.signingKey);
  // The optional peers, imported only now (see provider.ts's `engine`).
  const [engine, client] = await Promise.all([import('oidc-provider'), import('openid-client')]);
  const store =
    settings.store === undefined
      ? { adapter: memoryAdapter(), close: async () => {} }
      : await import('./redis-store.js').then(({ redisAdapter }) =>
          redisAdapter(settings.store as string),
        );
  const { adapter } = store;
  const issuer = new URL(settings.issuer);
  const provider = createFrontProvider({
    issuer: settings.issuer,
    resource: settings.resource,
    toolScopes: settings.toolScopes,
    signingKey,
    cookieKeys: [derivedSecret(signingKey, 'cookies')],
    adapter,
    engine,
  });
  const upstream = createUpstream({
    issuer: settings.upstreamIssuer,
    clientId: settings.upstreamClientId,
    clientSecret: settings.upstreamClientSecret,
    scope: settings.upstreamScope,
    redirectUri: new URL('/oauth/callback', issuer).href,
    client,
    fetchOptions: settings.fetchOptions,
  });
  const route = interactionRoutes({
    provider,
    adapter,
    upstream,
    upstreamIssuer: settings.upstreamIssuer,
    issuer: settings.issuer,
  });
  const callback = provider.callback();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const handle = route(new URL(req.url ?? '/', issuer).pathname);
    if (handle) void handle(req, res);
    else callback(req, res);
  };
  const registrations = tokenBucket(REGISTRATION_BURST, REGISTRATION_REFILL_MS);
  const bridge = await startBridge(listener, issuer);
  return {
    keySet: createLocalJWKSet({ keys: [signingKey.publicJwk] }),
    close: async () => {
      await bridge.close();
      await store.close();
    },
    async fetch(request) {
      const { pathname } = new URL(request.url);
      if (request.method === 'POST' && pathname === '/register' && !registrations.take()) {
        return Response.json(
          {
            error: 'temporarily_unavailable',
            error_description:
              'Too many registrations at once; try again shortly, or identify the client by a Client ID Metadata Document.',
          },
          { status: 429, headers: { 'retry-after': String(REGISTRATION_REFILL_MS / 1000) } },
        );
      }
      return bridge.fetch(request);
    },
  };
}

/** A token bucket: `burst` at once, then one per `refillMs` (by the monotonic clock). */
function tokenBucket(burst: number, refillMs: number): { take(): boolean } {
  let tokens = burst;
  let last = performance.now();
  return {
    take() {
      const now = performance.now();
      tokens = Math.min(burst, tokens + (now - last) / refillMs);
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
