/**
 * What makes an access token sendable: RFC 6750's `b64token`, the characters a bearer token may
 * hold in `Authorization: Bearer <token>`, and no longer than a token response may be. The token
 * endpoint's answer and the shared cache's stored value are both checked against it, so that a
 * token that cannot be sent is never held: held, it would fail every call before sending, no 401
 * would ever come, and nothing would replace it until it expired.
 */

/**
 * A token response is a few hundred bytes; anything near this (64 KiB) is not one, and no access
 * token is longer. Written out: a product such as `64 * 1024` is one esbuild keeps in every app's
 * bundle, OAuth or not.
 */
export const MAX_TOKEN_RESPONSE_BYTES = 65_536;

/** RFC 6750 section 2.1: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. */
const b64token = /^[\w.~+/-]+=*$/;
const tokenCharacter = /[\w.~+/-]/;

/**
 * Why `value` cannot be sent as a bearer token, in words that never quote it (it is a secret,
 * and its bad character may be one a terminal acts on); `undefined` when it can.
 *
 * @example
 * ```ts
 * accessTokenProblem('at_123');  // undefined
 * accessTokenProblem('at_123 '); // 'character 7 is U+0020, which RFC 6750 does not allow in a bearer token'
 * ```
 */
export function accessTokenProblem(value: unknown): string | undefined {
  if (value === undefined) return 'it is missing';
  if (typeof value !== 'string')
    return `it is ${value === null ? 'null' : typeof value}, not a string`;
  if (value === '') return 'it is empty';
  if (value.length > MAX_TOKEN_RESPONSE_BYTES) {
    return `it is ${value.length} characters long, over the ${MAX_TOKEN_RESPONSE_BYTES} taken`;
  }
  if (b64token.test(value)) return undefined;
  // Trailing `=` are padding; any other character out of the set is the one to name.
  const padding = value.length - (/=*$/.exec(value)?.[0].length ?? 0);
  if (padding === 0) return 'it is only "=" padding';
  let at = 0;
  while (at < padding && tokenCharacter.test(value.charAt(at))) at++;
  const code = value.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  return `character ${at + 1} is U+${code}, which RFC 6750 does not allow in a bearer token`;
}
