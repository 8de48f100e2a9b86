const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Makes an identifier such as `proj_3kT9...`: the prefix, an underscore, then random letters and
 * digits.
 *
 * Web Crypto rather than `Math.random` because ids double as capabilities in a real service, and
 * the mock should not teach clients to rely on guessable ones.
 */
export function randomId(prefix: string, length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = '';
  // 256 is not a multiple of 62, so the first few letters are very slightly likelier; harmless
  // for ids that only need to be unique.
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}
