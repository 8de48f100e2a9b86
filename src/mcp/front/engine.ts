/**
 * The sign-in front put together: the signing key, the store, oidc-provider and the interaction
 * routes behind one node:http listener, reached through the bridge. Loaded on first use by
 * index.ts, so that agentchat/mcp without a front never loads oidc-provider or openid-client.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import { startBridge } from './bridge.js';
import { callerOf } from './caller.js';
import { errorPage, PAGE_HEADERS, scopeNamesOf } from './consent-page.js';
import { withFetchMemo } from './document-fetch.js';
import { interactionRoutes } from './interactions.js';
import { memoryStore } from './memory-store.js';
import { type FrontSettings, type FrontStore, StoreUnavailableError } from './options.js';
import { postedAuthorization } from './posted-authorization.js';
import { createFrontProvider, FRONT_ROUTES } from './provider.js';
import { derivedSecret, loadSigningKey } from './signing-key.js';
import { withStoreBudget } from './store-budget.js';
import { createUpstream } from './upstream.js';

/**
 * Registrations allowed to one caller (an address, see caller.ts) in a burst, then one every
 * {@link REGISTRATION_REFILL_MS}.
 */
export const REGISTRATION_BURST = 20;
export const REGISTRATION_REFILL_MS = 3_000;

/** The loaded front. */
export interface FrontEngine {
  fetch(request: Request): Promise<Response>;
  /** Lets go of the store (a Redis connection). */
  close(): Promise<void>;
  /** The front's public key, for the verifier. */
  readonly keySet: JWTVerifyGetKey;
  /**
   * Why the front cannot serve a sign-in now, in general words for anyone to read (`the store
   * cannot be reached`), or `undefined`; the detail is in the log.
   */
  check(): Promise<string | undefined>;
}

/** What anyone may be told of a store that cannot be reached: never where it is, nor why. */
const STORE_UNREACHABLE_FOR_ANYONE = 'the store cannot be reached';

/** Seconds a client is asked to wait when the store is down, in `Retry-After`. */
export const STORE_RETRY_AFTER_S = 5;

/**
 * The answer to a request that needed the store while it could not be reached: 503 with
 * `Retry-After`, a page for a person's browser, an OAuth error for a host.
 */
function storeUnavailable(answer: Response): Response {
  const error = new StoreUnavailableError();
  const headers = { 'retry-after': String(STORE_RETRY_AFTER_S), 'cache-control': 'no-store' };
  if (answer.headers.get('content-type')?.startsWith('text/html')) {
    return new Response(errorPage('The sign-in is unavailable for a moment', error.message), {
      status: 503,
      headers: { ...PAGE_HEADERS, ...headers },
    });
  }
  return Response.json(
    { error: 'temporarily_unavailable', error_description: error.message },
    { status: 503, headers },
  );
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
  const store: FrontStore =
    settings.store === undefined
      ? memoryStore()
      : await import('./redis-store.js').then(({ redisAdapter }) =>
          redisAdapter(settings.store as string, settings.logger),
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
    logger: settings.logger,
  });
  // Discovered now: an upstream that cannot be reached stops the front's start, not a sign-in.
  await upstream.discover();
  const route = interactionRoutes({
    provider,
    adapter,
    upstream,
    upstreamIssuer: settings.upstreamIssuer,
    issuer: settings.issuer,
    scopeNames: scopeNamesOf(settings.toolScopes),
  });
  // Errors that reach the engine's application rather than one of its routes (which answer them
  // themselves): without a listener, Koa prints each one's stack, a line per request. A store
  // outage is told once by the store; each request it fails is detail, at debug.
  // The provider is the Koa application itself; its types list only the engine's own events.
  (provider as unknown as EventEmitter).on('error', (error: unknown) => {
    if (error instanceof StoreUnavailableError) {
      settings.logger?.debug(`agentchat-mcp: sign-in front: ${error.message}`);
    } else {
      settings.logger?.error(`agentchat-mcp: sign-in front: ${(error as Error)?.message}`);
    }
  });
  provider.use(async (ctx, next) => {
    // The path as the engine's router reads it, whatever the spelling (see isRouteOf).
    if (ctx.method === 'POST' && isRouteOf(ctx.path, FRONT_ROUTES.registration)) {
      let taken: boolean;
      try {
        // The bridge names the caller in X-Forwarded-For, which the engine reads as `ctx.ip`.
        taken = await store.takeRegistration(ctx.ip, REGISTRATION_BURST, REGISTRATION_REFILL_MS);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        // Answered as every request the store fails (storeUnavailable), never logged here.
        ctx.status = 503;
        return;
      }
      if (!taken) {
        ctx.status = 429;
        ctx.set('retry-after', String(REGISTRATION_REFILL_MS / 1000));
        ctx.set('cache-control', 'no-store');
        ctx.body = {
          error: 'temporarily_unavailable',
          error_description:
            'Too many registrations at once; try again shortly, or identify the client by a Client ID Metadata Document.',
        };
        return;
      }
    }
    await next();
  });
  const callback = provider.callback();
  const listener = (req: IncomingMessage, res: ServerResponse) =>
    withStoreBudget(() =>
      withFetchMemo(() => {
        const handle = route(new URL(req.url ?? '/', issuer).pathname);
        if (handle) void handle(req, res);
        else callback(req, res);
      }),
    );
  const bridge = await startBridge(listener, issuer);
  return {
    keySet: createLocalJWKSet({ keys: [signingKey.publicJwk] }),
    close: async () => {
      await bridge.close();
      await store.close();
    },
    fetch: async (request) => {
      if (
        request.method === 'POST' &&
        isRouteOf(new URL(request.url).pathname, FRONT_ROUTES.authorization)
      ) {
        return postedAuthorization(request, new URL(FRONT_ROUTES.authorization, issuer));
      }
      const answer = await bridge.fetch(request, callerOf(request, settings.trustedProxies));
      // A store call failed (503, StoreUnavailableError's status), or the engine failed while the
      // store is down: a 503 in general words, whatever the engine or the store said.
      const outage = answer.status >= 500 ? store.outage() : undefined;
      if (answer.status !== 503 && outage === undefined) return answer;
      settings.logger?.debug(
        `agentchat-mcp: sign-in front: ${request.method} ${new URL(request.url).pathname} answered 503: ${outage ?? "a store call failed within the request's budget"}`,
      );
      return storeUnavailable(answer);
    },
    check: async () =>
      (await store.check()) === undefined ? undefined : STORE_UNREACHABLE_FOR_ANYONE,
  };
}

/**
 * True when oidc-provider's router answers `path` with `route`: it compares case-folded, and
 * tries once more without one trailing slash (`/register`, `/REGISTER`, `/register/`; the
 * handler's URL parsing has already turned `/register/.` and `/register/%2e` into `/register/`).
 * Upper-casing all of it matches a few spellings more than the router does, never fewer.
 */
export function isRouteOf(path: string, route: string): boolean {
  const folded = path.toUpperCase();
  const wanted = route.toUpperCase();
  return folded === wanted || folded === `${wanted}/`;
}
