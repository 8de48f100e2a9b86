/**
 * The JWS algorithms of asymmetric keys, in one list: those `private_key_jwt` signs with, and
 * those the MCP server accepts access tokens signed with (never `HS*`, whose shared secret would
 * let anyone holding it mint tokens, nor `none`).
 */

/**
 * A signing algorithm for `private_key_jwt`: RSA (`RS256`, `PS256`, ...), ECDSA (`ES256`, ...), or
 * `EdDSA` (Ed25519, where the runtime's Web Crypto has it).
 *
 * @example
 * ```ts
 * const algorithm: SigningAlgorithm = 'ES256';
 * ```
 */
export type SigningAlgorithm =
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA';

/** Every {@link SigningAlgorithm}: the options' check, and the MCP server's token verification. */
export const signingAlgorithms: readonly SigningAlgorithm[] = [
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
];
