import type { IssuedToken } from '../store/tokens.js';

/** The successful token response of RFC 6749 section 5.1. */
export interface TokenResponseBody {
  access_token: string;
  token_type: 'Bearer';
  /** Seconds from issue to expiry, rounded up. */
  expires_in: number;
  /** The scope granted; sent when the client asked for one. */
  scope?: string;
  /** For a token exchange (RFC 8693 section 2.2.1): the type of the token issued, an access token. */
  issued_token_type?: typeof ACCESS_TOKEN_TYPE;
}

/** RFC 8693 section 3's identifier of an access token. */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * The token response for an issued token.
 *
 * @example
 * ```ts
 * serializeToken(token); // { access_token: 'at_...', token_type: 'Bearer', expires_in: 3600 }
 * ```
 */
export function serializeToken(token: IssuedToken): TokenResponseBody {
  return {
    access_token: token.accessToken,
    token_type: 'Bearer',
    // Rounded up: a lifetime under a second still says 1, never 0, which a client would read as
    // a token already expired.
    expires_in: Math.ceil((token.expiresAt - token.issuedAt) / 1000),
    ...(token.scope === undefined ? {} : { scope: token.scope }),
    ...(token.grant === 'token-exchange' ? { issued_token_type: ACCESS_TOKEN_TYPE } : {}),
  };
}
