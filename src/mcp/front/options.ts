/**
 * The sign-in front's settings, checked when the handler is made (a `ConfigurationError` then,
 * never at the first request). Nothing here loads oidc-provider.
 */

import type { Adapter } from 'oidc-provider';
import type { FetchOptions } from '../../core/fetch-options.js';
import { ConfigurationError, type Logger } from '../../index.js';
import { isLoopback } from '../../internal/platform.js';
import { type TrustedProxies, trustedProxiesOf } from './caller.js';

/** The scope asked of the upstream when none is given. */
export const DEFAULT_UPSTREAM_SCOPE = 'openid profile email';

/** What the front is made from, checked. */
export interface FrontSettings {
  /** The front's issuer: the origin of the resource. */
  readonly issuer: string;
  readonly resource: string;
  readonly toolScopes: readonly string[];
  readonly upstreamIssuer: string;
  readonly upstreamClientId: string;
  readonly upstreamClientSecret: string | undefined;
  readonly upstreamScope: string;
  /** A private JWK or PEM (PKCS#8, SEC1 EC, PKCS#1 RSA); a key is made at start without. */
  readonly signingKey: string | object | undefined;
  /** The Redis URL of the shared store; memory without. */
  readonly store: string | undefined;
  /** The handler's `fetchOptions` (a proxy, a private CA), for every fetch to the upstream. */
  readonly fetchOptions: FetchOptions | undefined;
  /** The proxies whose `X-Forwarded-For` names the caller (caller.ts); none by default. */
  readonly trustedProxies: TrustedProxies;
  /** Where an outage of the store or the upstream is told, once; nowhere without. */
  readonly logger: Logger | undefined;
}

/**
 * oidc-provider's storage adapter as the front's stores implement it: `consume` marks a code or a
 * refresh token used in one atomic step and says whether this call was the one that did, so that
 * of any number of redemptions at once, on any replica, exactly one goes on (see provider.ts's
 * `redeemedOnce`).
 */
export interface FrontAdapter extends Omit<Adapter, 'consume'> {
  /** True for the one call that consumed `id`; false when it was consumed already, or is gone. */
  consume(id: string): Promise<boolean>;
}

/** A class of {@link FrontAdapter}, one instance per model, as oidc-provider makes them. */
export type FrontAdapterConstructor = new (model: string) => FrontAdapter;

/** A store of the front's state: oidc-provider's adapter class, and how to let go of it. */
export interface FrontStore {
  readonly adapter: FrontAdapterConstructor;
  /**
   * Takes one of `burst` registrations for `caller`, refilled at one per `refillMs`, counted where
   * every replica sharing the store counts: false when none is left.
   */
  takeRegistration(caller: string, burst: number, refillMs: number): Promise<boolean>;
  /**
   * Why the store cannot be reached as last seen (a command failed or got no reply in time, the
   * connection dropped), with its address, for the log only; `undefined` while it can.
   */
  outage(): string | undefined;
  /**
   * Asks the store now (within a request's budget; during an outage, what its probe last found):
   * why it cannot be reached, for the log, or `undefined`.
   */
  check(): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * A store that cannot be reached now: the request that needed it answers 503 with
 * `Retry-After` (engine.ts), never a stack or a hang.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailable';
  /** As oidc-provider's errors and the interaction routes read an error's status. */
  readonly statusCode = 503;
  constructor(options?: ErrorOptions) {
    super(
      'The sign-in service cannot reach its store just now; try again in a few seconds.',
      options,
    );
  }
}

/**
 * The upstream identity provider could not be discovered (nothing listening, a timeout, a proxy's
 * refusal, a certificate): its message names the issuer and the cause, for the operator's log and
 * the bin's exit; anyone else is told only that the identity provider cannot be reached.
 */
export class UpstreamUnreachableError extends Error {
  override readonly name = 'UpstreamUnreachable';
}

/** The upstream options as the handler takes them. */
export interface FrontOptionValues {
  readonly upstreamIssuer?: unknown;
  readonly upstreamClientId?: unknown;
  readonly upstreamClientSecret?: unknown;
  readonly upstreamScope?: unknown;
  readonly signingKey?: unknown;
  readonly store?: unknown;
  readonly trustedProxies?: unknown;
  /** Checked by the handler, with the protected resource's options. */
  readonly fetchOptions?: FetchOptions | undefined;
  /** The handler's logger, checked by the handler. */
  readonly logger?: Logger | undefined;
}

/**
 * The front's settings from the handler's options.
 *
 * @throws {@link ConfigurationError} naming the option that is missing or invalid.
 */
export function frontSettings(
  values: FrontOptionValues,
  resource: URL,
  toolScopes: readonly string[],
): FrontSettings {
  const { upstreamIssuer, upstreamClientId, upstreamClientSecret, upstreamScope, signingKey } =
    values;
  const issuerUrl = typeof upstreamIssuer === 'string' ? URL.parse(upstreamIssuer) : null;
  if (issuerUrl === null || !['https:', 'http:'].includes(issuerUrl.protocol)) {
    throw new ConfigurationError(
      `Invalid upstreamIssuer (--upstream-issuer) ${JSON.stringify(upstreamIssuer)}: expected the OpenID issuer URL of the identity provider, such as https://login.microsoftonline.com/<tenant>/v2.0.`,
    );
  }
  if (issuerUrl.protocol === 'http:' && !isLoopback(issuerUrl.hostname)) {
    throw new ConfigurationError(
      `Invalid upstreamIssuer (--upstream-issuer) ${JSON.stringify(upstreamIssuer)}: an identity provider is reached over https (http only on this machine).`,
    );
  }
  if (typeof upstreamClientId !== 'string' || upstreamClientId === '') {
    throw new ConfigurationError(
      'createMcpHttpHandler with upstreamIssuer needs upstreamClientId, the client id of the app registered for this server at the identity provider.',
    );
  }
  if (
    upstreamClientSecret !== undefined &&
    (typeof upstreamClientSecret !== 'string' || upstreamClientSecret === '')
  ) {
    throw new ConfigurationError(
      'createMcpHttpHandler: upstreamClientSecret must be a non-empty string (the secret of the app registered at the identity provider).',
    );
  }
  if (
    upstreamScope !== undefined &&
    (typeof upstreamScope !== 'string' || !upstreamScope.split(' ').includes('openid'))
  ) {
    throw new ConfigurationError(
      `Invalid upstreamScope (--upstream-scope) ${JSON.stringify(upstreamScope)}: a space-separated list holding openid, such as ${JSON.stringify(DEFAULT_UPSTREAM_SCOPE)}.`,
    );
  }
  if (signingKey !== undefined && !looksLikePrivateKey(signingKey)) {
    // Never the value: it is a key.
    throw new ConfigurationError(
      `signingKey (AGENTCHAT_SIGNING_KEY) is not a private key: give a private JWK (JSON, with "d") or an unencrypted PEM (${PEM_KINDS}).`,
    );
  }
  if (resource.protocol === 'http:' && !isLoopback(resource.hostname)) {
    throw new ConfigurationError(
      `Invalid resource (--resource) ${JSON.stringify(resource.href)}: with upstreamIssuer (--upstream-issuer) the server is an authorization server, reached over https (http only on this machine).`,
    );
  }
  return {
    issuer: resource.origin,
    resource: resource.href,
    toolScopes,
    // As given: the upstream's metadata and ID tokens must name this very string.
    upstreamIssuer: upstreamIssuer as string,
    upstreamClientId,
    upstreamClientSecret: upstreamClientSecret as string | undefined,
    upstreamScope: (upstreamScope as string | undefined) ?? DEFAULT_UPSTREAM_SCOPE,
    signingKey: signingKey as string | object | undefined,
    store: storeOf(values.store),
    fetchOptions: values.fetchOptions,
    trustedProxies: trustedProxiesOf(values.trustedProxies),
    logger: values.logger,
  };
}

/** The store `store` names: memory (`undefined`), or Redis at a `redis://` or `rediss://` URL. */
function storeOf(store: unknown): FrontSettings['store'] {
  if (store === undefined || store === 'memory') return undefined;
  const url = typeof store === 'string' ? URL.parse(store) : null;
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:')) {
    throw new ConfigurationError(
      `Invalid store (--store) ${JSON.stringify(url === null ? store : `${url.protocol}//${url.host}`)}: give "memory" or a Redis URL such as redis://cache.internal:6379.`,
    );
  }
  return store as string;
}

/**
 * The PEMs of an unencrypted private key Node's crypto reads: PKCS#8 (`openssl genpkey`), SEC1 EC
 * (`openssl ecparam -genkey`) and PKCS#1 RSA (`openssl genrsa -traditional`).
 */
const PRIVATE_KEY_PEM = /^-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/;

/** How the PEMs {@link PRIVATE_KEY_PEM} takes are named, for a refusal. */
export const PEM_KINDS = 'BEGIN PRIVATE KEY, BEGIN EC PRIVATE KEY or BEGIN RSA PRIVATE KEY';

/**
 * The shape of a private key, checked here so that a bad setting stops the start rather than the
 * first sign-in; the key itself is read when the front loads (signing-key.ts).
 */
function looksLikePrivateKey(value: unknown): boolean {
  let jwk: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (PRIVATE_KEY_PEM.test(text)) return true;
    try {
      jwk = JSON.parse(text);
    } catch {
      return false;
    }
  }
  const { kty, d } = (jwk ?? {}) as { kty?: unknown; d?: unknown };
  return typeof kty === 'string' && typeof d === 'string';
}
