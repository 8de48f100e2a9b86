import type { TokenStore } from '../store/tokens.js';

/** Why a request's bearer credential is refused, and the challenge its 401 carries (RFC 6750). */
export interface BearerRefusal {
  message: string;
  challenge: string;
}

/** What a credential that was sent but refused is told (RFC 6750 section 3.1). */
const INVALID_TOKEN = 'Bearer error="invalid_token"';

/** Why an access token in the mock's form is refused, by its status. */
const TOKEN_REFUSALS = {
  expired: 'The access token has expired; request a new one',
  revoked: 'The access token was revoked',
  unknown: 'Unknown access token',
} as const;

/**
 * Checks an `Authorization` header: an access token the mock issued, valid until it expires or is
 * revoked, or else one of the accepted API keys. Returns why it fails, or `undefined` when it
 * passes. Messages never repeat the credential: error bodies end up in logs.
 *
 * @example
 * ```ts
 * const check = createBearerCheck(['sk_test'], tokens);
 * check('Bearer sk_test'); // undefined
 * check(null);             // { message: 'Missing credentials: ...', challenge: 'Bearer' }
 * ```
 */
export function createBearerCheck(
  apiKeys: readonly string[] | undefined,
  tokens: TokenStore,
): (authorization: string | null) => BearerRefusal | undefined {
  const accepted = apiKeys ? new Set(apiKeys) : undefined;

  return (authorization) => {
    if (authorization === null || authorization.trim() === '') {
      return {
        message:
          'Missing credentials: send "Authorization: Bearer <key>" with an API key or an access token',
        challenge: 'Bearer',
      };
    }
    const credential = bearerCredential(authorization);
    if (credential === undefined) {
      return {
        message: 'Malformed Authorization header: expected "Bearer <key>"',
        challenge: 'Bearer',
      };
    }
    if (tokens.isAccessToken(credential)) {
      const status = tokens.status(credential);
      return status === 'valid'
        ? undefined
        : { message: TOKEN_REFUSALS[status], challenge: INVALID_TOKEN };
    }
    if (accepted && !accepted.has(credential)) {
      return { message: 'Invalid API key', challenge: INVALID_TOKEN };
    }
    return undefined;
  };
}

/**
 * The credential of an `Authorization: Bearer <credential>` header, or `undefined` when the
 * header is missing or of another form. The scheme is case-insensitive (RFC 9110); the credential
 * itself is one token.
 *
 * @example
 * ```ts
 * bearerCredential('bearer sk_test'); // 'sk_test'
 * bearerCredential('Basic dXNlcjpwYXNz'); // undefined
 * ```
 */
export function bearerCredential(authorization: string | null): string | undefined {
  return authorization === null ? undefined : /^bearer +(\S+) *$/i.exec(authorization)?.[1];
}

/**
 * Who is calling, as far as keeping their Idempotency-Keys apart goes: the OAuth client an access
 * token was issued to, so that its tokens share their keys, or else the API key itself;
 * `undefined` without a bearer credential (such a request is refused before a key counts).
 *
 * @example
 * ```ts
 * callerOf('Bearer sk_test', tokens); // 'api-key sk_test'
 * callerOf(`Bearer ${accessToken}`, tokens); // 'oauth-client reporting'
 * ```
 */
export function callerOf(authorization: string | null, tokens: TokenStore): string | undefined {
  const credential = bearerCredential(authorization);
  if (credential === undefined) return undefined;
  const clientId = tokens.isAccessToken(credential) ? tokens.clientOf(credential) : undefined;
  return clientId === undefined ? `api-key ${credential}` : `oauth-client ${clientId}`;
}
