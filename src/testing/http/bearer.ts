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
    // The scheme is case-insensitive (RFC 9110); the credential itself is one token.
    const credential = /^bearer +(\S+) *$/i.exec(authorization)?.[1];
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
