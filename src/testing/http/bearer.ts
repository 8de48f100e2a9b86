/**
 * Checks an `Authorization` header against the accepted keys, returning why it fails or
 * `undefined` when it passes. Messages never repeat the key: error bodies end up in logs.
 *
 * @example
 * ```ts
 * const check = createBearerCheck(['sk_test']);
 * check('Bearer sk_test'); // undefined
 * check(null);             // 'Missing API key: send "Authorization: Bearer <key>"'
 * ```
 */
export function createBearerCheck(
  apiKeys?: readonly string[],
): (authorization: string | null) => string | undefined {
  const accepted = apiKeys ? new Set(apiKeys) : undefined;

  return (authorization) => {
    if (authorization === null || authorization.trim() === '') {
      return 'Missing API key: send "Authorization: Bearer <key>"';
    }
    // The scheme is case-insensitive (RFC 9110); the key itself is one token.
    const match = /^bearer +(\S+) *$/i.exec(authorization);
    const key = match?.[1];
    if (key === undefined) {
      return 'Malformed Authorization header: expected "Bearer <key>"';
    }
    if (accepted && !accepted.has(key)) return 'Invalid API key';
    return undefined;
  };
}
