/**
 * Tokens already verified, so that a client calling again with the same token costs a hash and a
 * map lookup, not a signature check or an introspection request. Bounded (least recently used
 * out first) and only ever given valid tokens, so that a flood of distinct tokens, good or bad,
 * cannot grow the server's memory. Keyed by a SHA-256 of the token: the token itself is never
 * kept, and a heap dump shows none.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

/** What is kept of a verified token: its `AuthInfo` without the token. */
export type VerifiedToken = Omit<AuthInfo, 'token'> & { readonly expiresAt: number };

/** Enough for a few thousand callers at once; past it, the least recently used is verified again. */
export const VERIFIED_TOKEN_CACHE_SIZE = 4096;

/**
 * A least-recently-used map from token hashes to verified tokens, each kept until it expires.
 *
 * @example
 * ```ts
 * const cache = new VerifiedTokenCache(4096);
 * cache.set(await tokenKey(token), verified);
 * const hit = cache.get(await tokenKey(token), Date.now() / 1000);
 * ```
 */
export class VerifiedTokenCache {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  readonly #entries = new Map<string, VerifiedToken>();

  constructor(readonly capacity: number) {}

  /** How many tokens are kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** The token verified under `key`, unless it has expired by `nowSeconds` (then it is dropped). */
  get(key: string, nowSeconds: number): VerifiedToken | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= nowSeconds) return undefined;
    this.#entries.set(key, entry);
    return entry;
  }

  /** Keeps a verified token, dropping the least recently used one when full. */
  set(key: string, entry: VerifiedToken): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, entry);
  }
}

/**
 * Node's `node:crypto` where the runtime has one (Node, Bun, Deno, workerd with nodejs_compat).
 * Its SHA-256 of a token is synchronous; Web Crypto's goes to a thread pool and back, about 0.1 ms
 * of CPU per request (bench/mcp-auth.ts measured it as the largest piece of the gate's cost).
 */
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as typeof import('node:crypto') | undefined;

/** The cache key of a token: its SHA-256, in hex; through Web Crypto where there is no node:crypto. */
export async function tokenKey(token: string): Promise<string> {
  if (nodeCrypto !== undefined) return nodeCrypto.createHash('sha256').update(token).digest('hex');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
