/**
 * The mock's side of workload identity federation: which identity tokens its token endpoint takes
 * as a grant. A token is taken when it is a JWT whose `iss` is one of the trusted issuers, signed
 * (with an asymmetric algorithm) by a key of that issuer's key set, found by its discovery document
 * or given as `jwksUri`, whose `aud` is one the mock answers to, and which has not expired. The
 * checks are jose's (`createRemoteJWKSet`, `jwtVerify`); this file only says which failed.
 */
import { createRemoteJWKSet, decodeJwt, errors, type JWTPayload, jwtVerify } from 'jose';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { cut } from '../../internal/cut.js';
import { signingAlgorithms } from '../../oauth/signing-algorithms.js';

/**
 * An issuer of identity tokens the mock's token endpoint trusts, in
 * {@link MockServiceOptions.trustedIssuers}: its issuer identifier, and where its keys are when
 * its discovery document does not say.
 *
 * @example
 * ```ts
 * createMockService({
 *   trustedIssuers: [{ issuer: 'https://kubernetes.default.svc', jwksUri: 'http://127.0.0.1:8001/openid/v1/jwks' }],
 * });
 * ```
 */
export interface TrustedIssuer {
  /** The issuer identifier, equal to the `iss` of its tokens, such as `https://token.actions.githubusercontent.com`. */
  issuer: string;
  /**
   * Its JSON Web Key Set's URL.
   *
   * @default the `jwks_uri` of its discovery document, `{issuer}/.well-known/openid-configuration`
   */
  jwksUri?: string;
}

/** How long the mock waits for an issuer's discovery document or key set. */
const ISSUER_TIMEOUT_MS = 10_000;

/** The longest part of a token (its `iss`, its `aud`) quoted in a refusal. */
const QUOTED_LENGTH = 200;

/** What the mock makes of an identity token. */
export type IdentityVerdict =
  | { ok: true; issuer: string; subject: string; claims: JWTPayload }
  | { ok: false; reason: string };

/** Verifies identity tokens against the trusted issuers, for the audiences the mock answers to. */
export interface IdentityVerifier {
  /**
   * Whether `token` is taken, or why not; `name` is the parameter it came in (`assertion`,
   * `subject_token`), for the reason.
   */
  verify(token: string, name: string): Promise<IdentityVerdict>;
}

/**
 * Checks the `trustedIssuers` option: each an http(s) URL, or `{ issuer, jwksUri? }` of them.
 *
 * @throws ConfigurationError naming the entry at fault.
 * @example
 * ```ts
 * trustedIssuersOf(['https://token.actions.githubusercontent.com']);
 * // [{ issuer: 'https://token.actions.githubusercontent.com' }]
 * ```
 */
export function trustedIssuersOf(option: unknown): TrustedIssuer[] {
  if (!Array.isArray(option)) {
    throw new ConfigurationError(
      `trustedIssuers must be an array of issuer URLs, got ${typeof option}`,
    );
  }
  return option.map((entry: unknown, index) => {
    const trusted = typeof entry === 'string' ? { issuer: entry } : entry;
    const where = `trustedIssuers[${index}]`;
    if (typeof trusted !== 'object' || trusted === null) {
      throw new ConfigurationError(
        `${where} must be an issuer URL or { issuer, jwksUri? }, got ${trusted === null ? 'null' : typeof trusted}`,
      );
    }
    const { issuer, jwksUri, ...rest } = trusted as Record<string, unknown>;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) {
      throw new ConfigurationError(
        `${where} has no field ${JSON.stringify(unknown)}; its fields are issuer, jwksUri`,
      );
    }
    assertHttpUrl(issuer, `${where}${typeof entry === 'string' ? '' : '.issuer'}`);
    if (jwksUri !== undefined) assertHttpUrl(jwksUri, `${where}.jwksUri`);
    return jwksUri === undefined
      ? { issuer: issuer as string }
      : { issuer: issuer as string, jwksUri: jwksUri as string };
  });
}

function assertHttpUrl(value: unknown, name: string): void {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') {
    throw new ConfigurationError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
}

/**
 * Creates the verifier of identity tokens for `trusted` issuers, whose tokens must carry one of
 * `audiences` in `aud`. An issuer's key set is looked up (by its discovery document, unless its
 * `jwksUri` is given) when its first token arrives, and kept; a lookup that fails is tried again
 * with the next token. Only the trusted issuers are ever asked: a token naming another is refused
 * unread.
 *
 * @example
 * ```ts
 * const verifier = createIdentityVerifier([{ issuer }], [`${baseUrl}/oauth/token`]);
 * const verdict = await verifier.verify(token, 'assertion');
 * if (!verdict.ok) return oauthErrorResponse('invalid_grant', verdict.reason);
 * ```
 */
export function createIdentityVerifier(
  trusted: readonly TrustedIssuer[],
  audiences: readonly string[],
): IdentityVerifier {
  const byIssuer = new Map(trusted.map((entry) => [entry.issuer, entry]));
  // One key set per trusted issuer, never more: the map's keys come from the options, not from
  // tokens.
  const keySets = new Map<string, Promise<KeySet>>();
  const keySetOf = (entry: TrustedIssuer) => {
    let keys = keySets.get(entry.issuer);
    if (!keys) {
      keys = findKeySet(entry);
      keySets.set(entry.issuer, keys);
      keys.catch(() => keySets.delete(entry.issuer));
    }
    return keys;
  };

  return {
    async verify(token, name) {
      let claims: JWTPayload;
      try {
        claims = decodeJwt(token);
      } catch {
        return { ok: false, reason: `The ${name} is not a signed JWT` };
      }
      const entry = typeof claims.iss === 'string' ? byIssuer.get(claims.iss) : undefined;
      if (!entry) {
        const named =
          typeof claims.iss === 'string'
            ? JSON.stringify(cut(claims.iss, QUOTED_LENGTH))
            : 'no issuer';
        return {
          ok: false,
          reason: `The ${name}'s issuer (iss) is ${named}, which the mock does not trust; it trusts ${[...byIssuer.keys()].join(', ')} (trustedIssuers, agentchat-mock --trust-issuer)`,
        };
      }
      let keys: KeySet;
      try {
        keys = await keySetOf(entry);
      } catch (error) {
        return {
          ok: false,
          reason: `The keys of the issuer ${entry.issuer} could not be found: ${(error as Error).message}`,
        };
      }
      try {
        const { payload } = await jwtVerify(token, keys.get, {
          issuer: entry.issuer,
          audience: [...audiences],
          // Asymmetric ones only, as the MCP server takes: no shared secret can sign a token.
          algorithms: [...signingAlgorithms],
          requiredClaims: ['exp', 'sub'],
        });
        if (typeof payload.sub !== 'string' || payload.sub === '') {
          return { ok: false, reason: `The ${name}'s subject (sub) is not a non-empty string` };
        }
        return { ok: true, issuer: entry.issuer, subject: payload.sub, claims: payload };
      } catch (error) {
        return { ok: false, reason: refusal(error, name, entry, keys, audiences) };
      }
    },
  };
}

/** An issuer's key set, as jose fetches and caches it, and where it came from. */
interface KeySet {
  readonly uri: string;
  readonly get: ReturnType<typeof createRemoteJWKSet>;
}

/** The key set of a trusted issuer: at its `jwksUri`, or where its discovery document says. */
async function findKeySet(entry: TrustedIssuer): Promise<KeySet> {
  const uri = entry.jwksUri ?? (await discoverJwksUri(entry.issuer));
  return {
    uri,
    get: createRemoteJWKSet(new URL(uri), { timeoutDuration: ISSUER_TIMEOUT_MS }),
  };
}

/**
 * Where an issuer's OpenID discovery document is (OpenID Connect Discovery section 4): below the
 * issuer identifier, a trailing slash of which is dropped.
 *
 * @example
 * ```ts
 * discoveryUrl('https://issuer.agentchat.test'); // 'https://issuer.agentchat.test/.well-known/openid-configuration'
 * ```
 */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/** `jwks_uri` of the issuer's OpenID discovery document, whose `issuer` must be the one trusted. */
async function discoverJwksUri(issuer: string): Promise<string> {
  const url = discoveryUrl(issuer);
  let document: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(ISSUER_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    document = await response.json();
  } catch (error) {
    throw new Error(
      `its discovery document ${url} could not be read (${(error as Error).message})`,
    );
  }
  const { issuer: named, jwks_uri: jwksUri } = (document ?? {}) as Record<string, unknown>;
  if (named !== issuer) {
    throw new Error(
      `its discovery document ${url} names another issuer, ${JSON.stringify(cut(String(named), QUOTED_LENGTH))}`,
    );
  }
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) {
    throw new Error(`its discovery document ${url} has no jwks_uri`);
  }
  return jwksUri;
}

/** Which check a token failed, from jose's error, in words that never quote the token. */
function refusal(
  error: unknown,
  name: string,
  entry: TrustedIssuer,
  keys: KeySet,
  audiences: readonly string[],
): string {
  if (error instanceof errors.JWTExpired) {
    const exp =
      typeof error.payload.exp === 'number'
        ? new Date(error.payload.exp * 1000).toISOString()
        : 'unknown';
    return `The ${name} has expired (exp ${exp})`;
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') {
      const aud = JSON.stringify(error.payload.aud ?? null);
      return `The ${name}'s audience (aud) is ${cut(aud, QUOTED_LENGTH)}; the mock takes ${audiences.join(' or ')} (agentchat-mock --audience adds one)`;
    }
    if (error.reason === 'missing') return `The ${name} has no ${error.claim} claim`;
    return `The ${name}'s ${error.claim} claim check failed: ${error.message}`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return `The ${name} is not signed with an asymmetric algorithm (RS*, PS*, ES*, EdDSA); the mock takes no other`;
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return `The ${name}'s signature does not verify with the keys of the issuer ${entry.issuer}`;
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return `The keys of the issuer ${entry.issuer} could not be read from ${keys.uri}: ${error.message}`;
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported
  ) {
    return `The ${name} is not a valid signed JWT: ${error.message}`;
  }
  // What is left is the key set's fetch: the issuer down, an answer that is not a key set.
  return `The keys of the issuer ${entry.issuer} could not be read from ${keys.uri}: ${(error as Error).message}`;
}
