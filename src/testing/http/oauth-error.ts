import { jsonResponse } from './responses.js';

/** The error codes of RFC 6749 section 5.2 that the mock's token endpoint answers. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_scope';

/** The error body of RFC 6749 section 5.2. */
export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

/**
 * Headers of every token endpoint answer: a token, or an error about credentials, must not be
 * cached (RFC 6749 section 5.1).
 */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/**
 * A token endpoint error: 401 for `invalid_client`, 400 for the others.
 *
 * @example
 * ```ts
 * oauthErrorResponse('unsupported_grant_type', 'grant_type must be client_credentials');
 * ```
 */
export function oauthErrorResponse(
  error: OAuthErrorCode,
  description: string,
  headers?: Record<string, string>,
): Response {
  const body: OAuthErrorBody = { error, error_description: description };
  return jsonResponse(error === 'invalid_client' ? 401 : 400, body, { ...NO_STORE, ...headers });
}
