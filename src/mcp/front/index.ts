/**
 * The sign-in front as the handler holds it: its settings checked at once, its engine
 * (oidc-provider, openid-client) loaded on the first request that reaches it, so that
 * agentchat/mcp without a front never loads them.
 */
import type { JWTVerifyGetKey } from 'jose';
import { ConfigurationError } from '../../index.js';
import { isMissingPackage } from '../../internal/missing-package.js';
import type { FrontEngine } from './engine.js';
import {
  type FrontOptionValues,
  type FrontSettings,
  frontSettings,
  UpstreamUnreachableError,
} from './options.js';

/** The optional peers the front loads. */
const FRONT_PEERS = ['oidc-provider', 'openid-client'];

/** The paths the front answers, under the resource's origin. */
const FRONT_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/authorize',
  '/token',
  '/register',
  '/revoke',
  '/jwks',
  '/interaction',
  '/oauth/callback',
];

/** The front, loaded on first use. */
export interface SignInFront {
  /** True when the front answers `pathname`. */
  handles(pathname: string): boolean;
  fetch(request: Request): Promise<Response>;
  /** Lets go of what the front holds (a Redis connection), when it was loaded. */
  close(): Promise<void>;
  /**
   * Why the front cannot sign anyone in now (its upstream not discovered, its store unreachable)
   * in general words for anyone to read, or `undefined` when it can: the readiness `/health`
   * answers. The detail (an address, a connection's error) is in the log.
   */
  problem(): Promise<string | undefined>;
  /**
   * Loads the front now, for a start-up that must stop on a fault.
   *
   * @throws the reason it cannot start, in full (the issuer and the cause), for the operator.
   */
  start(): Promise<void>;
  /** The front's signing key, as the verifier checks tokens with it. */
  readonly keySet: JWTVerifyGetKey;
  /** The front's issuer identifier. */
  readonly issuer: string;
}

/**
 * The front for `settings`.
 *
 * @example
 * ```ts
 * const front = signInFront(frontSettings(options, resource, scopes, undefined));
 * if (front.handles(pathname)) return front.fetch(request);
 * ```
 */
export function signInFront(settings: FrontSettings): SignInFront {
  let engine: Promise<FrontEngine> | undefined;
  /** The last failure to start, kept a few seconds so that a flood does not retry per request. */
  let failed: { error: Error; at: number } | undefined;
  const loaded = () => {
    if (failed !== undefined && performance.now() - failed.at < START_RETRY_MS) {
      return Promise.reject(failed.error);
    }
    engine ??= import('./engine.js')
      .then(({ createFrontEngine }) => createFrontEngine(settings))
      .then(
        (started) => {
          failed = undefined;
          return started;
        },
        (error: unknown) => {
          engine = undefined;
          const reason = startFailure(error);
          // Told once per cause, not once per request that finds the front not started.
          if (failed?.error.message !== reason.message) {
            settings.logger?.warn(`agentchat-mcp: ${reason.message}`);
          }
          failed = { error: reason, at: performance.now() };
          throw reason;
        },
      );
    return engine;
  };
  return {
    issuer: settings.issuer,
    handles: (pathname) =>
      FRONT_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`)),
    fetch: async (request) => {
      let started: FrontEngine;
      try {
        started = await loaded();
      } catch (error) {
        // A missing peer is the operator's to fix, and thrown as such; anything else may pass.
        if (error instanceof ConfigurationError) throw error;
        // In general words: the issuer's address and its error are the log's (told once).
        return Response.json(
          {
            error: 'temporarily_unavailable',
            error_description: `The sign-in service is unavailable: ${unavailableReason(error)}; try again in a few seconds.`,
          },
          {
            status: 503,
            headers: { 'retry-after': String(START_RETRY_MS / 1000), 'cache-control': 'no-store' },
          },
        );
      }
      return started.fetch(request);
    },
    problem: async () => {
      try {
        return await (await loaded()).check();
      } catch (error) {
        return unavailableReason(error);
      }
    },
    start: async () => {
      await loaded();
    },
    close: async () => {
      const current = engine;
      engine = undefined;
      await (await current?.catch(() => undefined))?.close();
    },
    keySet: async (header, token) => (await loaded()).keySet(header, token),
  };
}

/** Why the front could not start, in the general words anyone may read. */
function unavailableReason(error: unknown): string {
  return error instanceof Error && error.cause instanceof UpstreamUnreachableError
    ? 'the identity provider cannot be reached'
    : 'the sign-in front cannot start';
}

/** How long a failure to start is answered as it was before the front tries again, in ms. */
const START_RETRY_MS = 5_000;

/** Why the front could not start, as the operator is told: the missing peer, or the cause. */
function startFailure(error: unknown): Error {
  if (isMissingPackage(error, 'redis')) {
    return new ConfigurationError(
      'The sign-in front with a Redis store needs redis, an optional peer dependency of agentchat: npm install redis',
      { cause: error },
    );
  }
  if (FRONT_PEERS.some((name) => isMissingPackage(error, name))) {
    return new ConfigurationError(
      `The sign-in front (upstreamIssuer) needs ${FRONT_PEERS.join(', ')}, optional peer ` +
        `dependencies of agentchat: npm install ${FRONT_PEERS.join(' ')}`,
      { cause: error },
    );
  }
  if (error instanceof ConfigurationError) return error;
  return new Error(
    `The sign-in front cannot start: ${(error as Error)?.message ?? String(error)}`,
    {
      cause: error,
    },
  );
}

/** The handler's options the front reads. */
export interface FrontHandlerOptions extends FrontOptionValues {
  readonly authorizationServer?: unknown;
  readonly resource?: unknown;
  readonly client?: unknown;
}

/** The options that only mean something with `upstreamIssuer`. */
const UPSTREAM_ONLY = [
  'upstreamClientId',
  'upstreamClientSecret',
  'upstreamScope',
  'signingKey',
  'trustedProxies',
] as const;

/**
 * The front `options` ask for (with `upstreamIssuer`), or `undefined`.
 *
 * @throws {@link ConfigurationError} when the front's options are incomplete, invalid or come
 * with `authorizationServer`, or without `client` or `resource`.
 */
export function signInFrontOf(
  options: FrontHandlerOptions,
  toolScopes: readonly string[],
): SignInFront | undefined {
  if (options.upstreamIssuer === undefined) {
    const stray = UPSTREAM_ONLY.find((name) => options[name] !== undefined);
    if (stray !== undefined) {
      throw new ConfigurationError(
        `createMcpHttpHandler: ${stray} is for the sign-in front: add upstreamIssuer.`,
      );
    }
    return undefined;
  }
  if (options.authorizationServer !== undefined) {
    throw new ConfigurationError(
      'createMcpHttpHandler takes authorizationServer (hosts get tokens there) or upstreamIssuer ' +
        '(this server is the authorization server, signing people in there), not both.',
    );
  }
  if (options.client === undefined) {
    throw new ConfigurationError(
      "createMcpHttpHandler with upstreamIssuer needs client, a Client with the server's own " +
        'credential: the tokens hosts get are for this server, and are never passed on.',
    );
  }
  const resource = typeof options.resource === 'string' ? URL.parse(options.resource) : null;
  if (resource === null || !['https:', 'http:'].includes(resource.protocol)) {
    throw new ConfigurationError(
      'createMcpHttpHandler with upstreamIssuer needs resource, the public URL hosts reach /mcp ' +
        'at (such as https://mcp.example.com/mcp): its origin is the issuer hosts register with.',
    );
  }
  return signInFront(frontSettings(options, resource, toolScopes));
}
