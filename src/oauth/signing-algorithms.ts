/**
 * The JWS algorithms of asymmetric keys, in one list: those `private_key_jwt` signs with, and
 * those the MCP server accepts access tokens signed with (never `HS*`, whose shared secret would
 * let anyone holding it mint tokens, nor `none`).
 */

/** Every {@link SigningAlgorithm}: the options' check, and the MCP server's token verification. */
export const signingAlgorithms = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

/**
 * A signing algorithm for `private_key_jwt`: RSA (`RS256`, `PS256`, ...), ECDSA (`ES256`, ...), or
 * `EdDSA` (Ed25519, where the runtime's Web Crypto has it).
 *
 * @useDeclaredType
 * @example
 * ```ts
 * const algorithm: SigningAlgorithm = 'ES256';
 * ```
 */
export type SigningAlgorithm = (typeof signingAlgorithms)[number];
