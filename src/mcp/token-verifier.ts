/**
 * The access-token verifier of agentchat/mcp's authorization: the `OAuthTokenVerifier` the MCP
 * SDK's bearer-auth helpers call. JWT access tokens (RFC 9068) are verified by jose against the
 * issuer's key set; opaque ones, when introspection is on, by RFC 7662 introspection. Each valid
 * token is kept until it expires in a bounded cache; invalid ones are not kept at all.
 *
 * A token found invalid is an `OAuthError` `invalid_token` (a 401 for the caller). The issuer, its
 * key set or its introspection endpoint out of reach is `temporarily_unavailable` (a 503): a host
 * told 401 would throw its user's login away for an outage that is not theirs. After a failed
 * exchange with the issuer, none of that kind is tried again for a few seconds (see
 * {@link IssuerOutage}), so that a flood of tokens during an outage costs the issuer, and the log,
 * one request and one line per cooldown, not one each.
 */
import {
  type AuthInfo,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import type { FetchOptions } from '../core/fetch-options.js';
import type { Logger } from '../index.js';
import { isLoopback } from '../internal/platform.js';
import { signingAlgorithms } from '../oauth/signing-algorithms.js';
import { boundedFetch, DOCUMENT_TIMEOUT_MS } from './bounded-fetch.js';
import { issuerMetadata } from './issuer-documents.js';
import {
  tokenKey,
  VERIFIED_TOKEN_CACHE_SIZE,
  type VerifiedToken,
  VerifiedTokenCache,
} from './verified-token-cache.js';

/**
 * The credentials agentchat/mcp introspects opaque access tokens with (RFC 7662), as a client of
 * the authorization server allowed to introspect.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler, type IntrospectionCredentials } from 'agentchat/mcp';
 *
 * const introspection: IntrospectionCredentials = {
 *   clientId: 'agentchat-mcp',
 *   clientSecret: process.env.AGENTCHAT_INTROSPECTION_CLIENT_SECRET ?? '',
 * };
 * ```
 */
export interface IntrospectionCredentials {
  /**
   * The client id the server introspects as.
   *
   * @default none: required
   */
  readonly clientId: string;
  /**
   * Its secret, sent by HTTP Basic (`client_secret_basic`).
   *
   * @default none: required
   */
  readonly clientSecret: string;
}

/** What the verifier checks tokens against. */
export interface TokenVerifierOptions {
  /** The issuer identifier tokens must carry (`iss`), whose metadata names the keys. */
  readonly issuer: string;
  /** The resource tokens must be issued for (`aud`): the MCP endpoint's canonical URL. */
  readonly resource: string;
  /** Other `aud` values a token may carry instead of the resource. */
  readonly audience?: readonly string[] | undefined;
  /** Check opaque tokens by introspection with these credentials; without, only JWTs pass. */
  readonly introspection?: IntrospectionCredentials | undefined;
  /** Where an unreachable issuer is reported. */
  readonly logger?: Logger | undefined;
  /** Merged into every fetch to the authorization server: a proxy, a private CA. */
  readonly fetchOptions?: FetchOptions | undefined;
  /** The issuer's keys when they are at hand (the sign-in front's own): nothing is fetched. */
  readonly keySet?: JWTVerifyGetKey | undefined;
}

/** The verifier, and what tests read of its cache. */
export interface TokenVerifier extends OAuthTokenVerifier {
  /** How many verified tokens are cached. */
  readonly cacheSize: number;
}

/**
 * Asymmetric signatures only: a shared-secret (HS*) token could be minted by anyone holding it.
 * `Ed25519` is the newer name (RFC 9864) some issuers give what `EdDSA` names.
 */
const ALGORITHMS = [...signingAlgorithms, 'Ed25519'];

/** Clock skew allowed on `exp` and `nbf`, in seconds. */
const CLOCK_TOLERANCE_S = 60;

/** A longer token is no token of any real issuer; refused before any work is spent on it. */
const MAX_TOKEN_LENGTH = 16_384;

/** How long after a key-set fetch an unknown `kid` may fetch it again (jose's cooldown), in ms. */
const KEY_SET_COOLDOWN_MS = 30_000;

/**
 * How long after a failed exchange with the issuer tokens that need another are answered 503 at
 * once, in ms: the `Retry-After` the gate sends with that 503.
 */
export const OUTAGE_COOLDOWN_MS = 5_000;

/** jose's errors that say the token is bad, not that the issuer failed. */
const INVALID_TOKEN_CODES = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

/**
 * Makes the verifier. Nothing is fetched until the first token: the issuer's metadata, then its
 * key set, each kept (the key set fetched again, at most every 30 s, for a `kid` it lacks).
 *
 * @example
 * ```ts
 * const verifier = createTokenVerifier({
 *   issuer: 'https://auth.example.com',
 *   resource: 'https://mcp.example.com/mcp',
 * });
 * const authInfo = await verifier.verifyAccessToken(token);
 * ```
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const { issuer, resource, introspection, logger, fetchOptions } = options;
  // The audiences a token may be for: the resource, and those an identity provider that cannot
  // put a URL in `aud` uses instead.
  const audiences = [resource, ...(options.audience ?? [])];
  const metadata = issuerMetadata(issuer, logger, fetchOptions);
  const fetchDocument = boundedFetch(fetchOptions);
  const cache = new VerifiedTokenCache(VERIFIED_TOKEN_CACHE_SIZE);
  let keySet: JWTVerifyGetKey | undefined = options.keySet;

  const unavailable = (what: string, error: unknown): OAuthError => {
    const reason = error instanceof Error ? error.message : String(error);
    logger?.warn(`agentchat-mcp: ${what} is out of reach (${reason}); answering 503`);
    return new OAuthError(
      OAuthErrorCode.TemporarilyUnavailable,
      `The authorization server cannot be reached to verify the token (${what}); try again shortly.`,
    );
  };

  // Logged once each: every request with a token would otherwise log the same line again.
  const refusedUrls = new Set<string>();
  /**
   * `url`, named by the issuer's metadata as `field`, when it may be sent to: https, or http on a
   * loopback host (RFC 8414 section 2 and RFC 7662 section 4 ask for TLS). A key set fetched in
   * clear could be swapped on the way, and an introspection request carries the server's secret.
   */
  const usable = (field: string, url: string): URL => {
    const parsed = URL.parse(url);
    if (
      parsed?.protocol === 'https:' ||
      (parsed?.protocol === 'http:' && isLoopback(parsed.hostname))
    ) {
      return parsed;
    }
    if (!refusedUrls.has(url)) {
      refusedUrls.add(url);
      logger?.error(
        `agentchat-mcp: the authorization server ${issuer} is unusable: its metadata names ` +
          `${field} ${JSON.stringify(url)}, which is not https (plain http only on a loopback ` +
          'host); nothing is sent there, and requests with tokens are answered 503',
      );
    }
    throw new OAuthError(
      OAuthErrorCode.TemporarilyUnavailable,
      `The authorization server cannot be used to verify the token: its ${field} is not https.`,
    );
  };

  const metadataOutage = new IssuerOutage(unavailable);
  const keySetOutage = new IssuerOutage(unavailable);
  const introspectionOutage = new IssuerOutage(unavailable);

  const discovered = async () => {
    metadataOutage.check();
    try {
      return await metadata.get();
    } catch (error) {
      throw metadataOutage.failed(`the metadata of ${issuer}`, error);
    }
  };

  const verifyJwt = async (token: string): Promise<VerifiedToken> => {
    if (keySet === undefined) {
      const { jwks_uri } = await discovered();
      if (jwks_uri === undefined) {
        throw keySetOutage.failed(
          `the key set of ${issuer}`,
          new Error('its metadata has no jwks_uri'),
        );
      }
      keySet ??= withOutageCooldown(
        createRemoteJWKSet(usable('jwks_uri', jwks_uri), {
          timeoutDuration: DOCUMENT_TIMEOUT_MS,
          cooldownDuration: KEY_SET_COOLDOWN_MS,
          [customFetch]: fetchDocument,
        }),
        keySetOutage,
        `the key set of ${issuer}`,
      );
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer,
        audience: audiences,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      if (isTokenError(error)) {
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          `The access token was refused: ${(error as Error).message}.`,
        );
      }
      // The key set's own refusal, or (the sign-in front's keys) a failure of its own.
      if (error instanceof OAuthError) throw error;
      throw keySetOutage.failed(`the key set of ${issuer}`, error);
    }
    return verifiedToken(payload, resource);
  };

  const introspect = async (
    token: string,
    credentials: IntrospectionCredentials,
  ): Promise<VerifiedToken> => {
    const { introspection_endpoint } = await discovered();
    if (introspection_endpoint === undefined) {
      throw introspectionOutage.failed(
        `token introspection at ${issuer}`,
        new Error('its metadata has no introspection_endpoint'),
      );
    }
    const endpoint = usable('introspection_endpoint', introspection_endpoint);
    introspectionOutage.check();
    let answer: Record<string, unknown>;
    try {
      const basic = `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`;
      const response = await fetchDocument(endpoint.href, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          authorization: `Basic ${btoa(basic)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      });
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      answer = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw introspectionOutage.failed(`token introspection at ${issuer}`, error);
    }
    const now = Date.now() / 1000;
    const audience = [answer.aud].flat();
    const refusal =
      answer.active !== true
        ? 'it is not active'
        : typeof answer.exp !== 'number' || answer.exp + CLOCK_TOLERANCE_S <= now
          ? 'it has expired'
          : answer.iss !== undefined && answer.iss !== issuer
            ? 'it was issued by another server'
            : !audience.some((value) => audiences.includes(value as string))
              ? 'it was not issued for this resource'
              : undefined;
    if (refusal !== undefined) {
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        `The access token was refused: ${refusal}.`,
      );
    }
    return verifiedToken(answer as JWTPayload, resource);
  };

  return {
    get cacheSize() {
      return cache.size;
    },
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (token.length > MAX_TOKEN_LENGTH) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is too long.');
      }
      const key = await tokenKey(token);
      const cached = cache.get(key, Date.now() / 1000);
      if (cached) return { ...cached, token };
      let verified: VerifiedToken;
      if (isJwt(token)) verified = await verifyJwt(token);
      else if (introspection) verified = await introspect(token, introspection);
      else {
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          'The access token is not a JWT, and this server does not introspect opaque tokens.',
        );
      }
      cache.set(key, verified);
      return { ...verified, token };
    },
  };
}

/** A jose error that says the token is bad, not that the issuer failed. */
function isTokenError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && INVALID_TOKEN_CODES.has(code);
}

/**
 * One kind of exchange with the issuer (its metadata, its key set, introspection) once it has
 * failed: for {@link OUTAGE_COOLDOWN_MS} none of that kind is tried, and every token that needs
 * one gets the same 503 at once. The failure is reported (logged) once per cooldown, however many
 * tokens were waiting on the exchange that failed or meet the refusal after it.
 */
class IssuerOutage {
  #until = Number.NEGATIVE_INFINITY;
  #refusal: OAuthError | undefined;

  constructor(readonly report: (what: string, error: unknown) => OAuthError) {}

  /** The 503 to answer while cooling down after a failure, else `undefined`. */
  get refusal(): OAuthError | undefined {
    return Date.now() < this.#until ? this.#refusal : undefined;
  }

  /** Throws the refusal while cooling down after a failure. */
  check(): void {
    const refusal = this.refusal;
    if (refusal !== undefined) throw refusal;
  }

  /** Records that reaching `what` failed with `error`, and returns the refusal to throw. */
  failed(what: string, error: unknown): OAuthError {
    const ongoing = this.refusal;
    if (ongoing !== undefined) return ongoing;
    const refusal = this.report(what, error);
    this.#refusal = refusal;
    this.#until = Date.now() + OUTAGE_COOLDOWN_MS;
    return refusal;
  }
}

/**
 * jose's remote key set, fetched again after a failure only once `outage` has cooled down (jose
 * itself tries again for the next token that needs the keys: during an outage, a fetch per token).
 * Meanwhile the keys last fetched still verify the tokens they sign; a token they cannot verify,
 * which may be signed with a key the issuer has since published, gets the outage's 503.
 */
function withOutageCooldown(
  remote: ReturnType<typeof createRemoteJWKSet>,
  outage: IssuerOutage,
  what: string,
): JWTVerifyGetKey {
  // The keys jose last fetched, as a local set, from the failure until a fetch succeeds.
  let lastKnown: JWTVerifyGetKey | undefined;
  return async (header, token) => {
    let refusal = outage.refusal;
    if (refusal === undefined) {
      try {
        const key = await remote(header, token);
        lastKnown = undefined;
        return key;
      } catch (error) {
        if (isTokenError(error)) throw error;
        refusal = outage.failed(what, error);
      }
    }
    const keys = lastKnown === undefined ? remote.jwks() : undefined;
    if (keys !== undefined) lastKnown = createLocalJWKSet(keys);
    if (lastKnown === undefined) throw refusal;
    try {
      return await lastKnown(header, token);
    } catch (error) {
      throw error instanceof errors.JWKSNoMatchingKey ? refusal : error;
    }
  };
}

/** Three base64url parts: a JWS in compact form. Anything else is opaque. */
function isJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/**
 * What a verified token says, from its claims or its introspection answer: `client_id` (RFC 9068
 * and 7662), else `azp` (Entra ID v2, Auth0) or `cid` (Okta); scopes from `scope` (a string),
 * `scp` (a string in Entra ID, a list in Okta) and `roles` (Entra ID's application permissions,
 * which a service-to-service token carries instead of `scp`), all of them.
 */
function verifiedToken(claims: JWTPayload, resource: string): VerifiedToken {
  const clientId = [claims.client_id, claims.azp, claims.cid, claims.sub].find(
    (value): value is string => typeof value === 'string',
  );
  const scopes = [claims.scope, claims.scp, claims.roles].flatMap((claim) =>
    (Array.isArray(claim) ? claim : typeof claim === 'string' ? claim.split(' ') : []).filter(
      (value): value is string => typeof value === 'string' && value !== '',
    ),
  );
  return {
    clientId: clientId ?? 'unknown',
    scopes: [...new Set(scopes)],
    expiresAt: claims.exp as number,
    resource: new URL(resource),
    extra: { subject: typeof claims.sub === 'string' ? claims.sub : undefined },
  };
}
