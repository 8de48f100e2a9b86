/**
 * One OAuth token for a fleet of processes, through a store the user already runs (Redis, Valkey,
 * Memcached, a KV): the key the token lives under, what is stored, and the lease that lets one
 * process ask the token endpoint while the others wait and re-read. The store is the user's, so
 * every operation on it is bounded and may fail: a failure costs the fleet its sharing, never a
 * call.
 */
import { accessTokenProblem } from './access-token.js';

/**
 * A shared store for the OAuth access token, given as `cache` to {@link clientCredentials}, so
 * that many processes (serverless functions, containers, replicas) share one token instead of
 * each asking the token endpoint. Each method may answer at once or with a promise.
 *
 * The value stored is a bearer token: whoever reads it can call the service until it expires.
 * Protect the store as you would the token (TLS, an ACL limited to the key prefix `agentchat:`).
 * The key and the value never hold the client secret.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 *
 * const redis = await createClient({ url: 'rediss://cache.internal:6380' }).connect();
 * const px = (ttlMs: number) => ({ type: 'PX', value: ttlMs }) as const;
 * const cache: TokenCache = {
 *   get: (key) => redis.get(key),
 *   set: (key, value, ttlMs) => redis.set(key, value, { expiration: px(ttlMs) }),
 *   lease: async (key, ttlMs) =>
 *     (await redis.set(key, '1', { condition: 'NX', expiration: px(ttlMs) })) === 'OK',
 * };
 * const apiKey = clientCredentials({
 *   tokenUrl: 'https://auth.example.com/oauth/token',
 *   clientId: 'my-service',
 *   cache, // the secret from AGENTCHAT_CLIENT_SECRET
 * });
 * ```
 */
export interface TokenCache {
  /** Answers the string stored under `key`, or `undefined` (or `null`) when there is none. */
  get(key: string): string | null | undefined | PromiseLike<string | null | undefined>;
  /**
   * Stores `value` under `key` for `ttlMs` milliseconds, replacing what was there. Its answer is
   * awaited and otherwise ignored.
   */
  set(key: string, value: string, ttlMs: number): unknown;
  /**
   * Takes a short exclusive claim on `key` for `ttlMs` milliseconds (Redis `SET key 1 NX PX ttlMs`)
   * and answers `true` when this call took it, `false` when someone holds it. With it, one process
   * of the fleet asks the token endpoint while the others wait and re-read; without it, each
   * process that finds no fresh token asks for one itself.
   */
  lease?(key: string, ttlMs: number): boolean | PromiseLike<boolean>;
}

/** A token and when it must be refreshed, and given up, in `Date.now()` time. */
export interface Token {
  readonly value: string;
  /** When its request was sent: its lifetime counts from then. */
  readonly issuedAt: number;
  readonly refreshAt: number;
  /** `Infinity` for a token without a lifetime, which serves until the service refuses it. */
  readonly expiresAt: number;
}

/** The numbers of the shared cache, in one place. */
export const tokenCacheDefaults = {
  /** The longest one cache operation may take before the provider goes on without it, in ms. */
  operationTimeoutMs: 1_000,
  /**
   * How long a lease lasts, in ms, and so the longest a process waits for another to bring a
   * token before it asks for its own: long enough for a token request and its retries.
   */
  leaseMs: 10_000,
  /** The first wait before re-reading the cache when another process holds the lease; doubles. */
  firstPollMs: 25,
  /** The longest wait between two reads while another process holds the lease. */
  maxPollMs: 500,
  /**
   * How long a token without a lifetime stays in the cache, in ms: an hour, written out. A product
   * such as `60 * 60_000` is one esbuild keeps in every app's bundle, OAuth or not.
   */
  untimedTokenTtlMs: 3_600_000,
} as const;

/** What the cache key is made from: the token request's identity, never its secret. */
export interface TokenIdentity {
  /** The token URL given, or `''` when the issuer's metadata names it. */
  readonly tokenUrl: string;
  readonly issuer?: string | undefined;
  readonly clientId: string;
  readonly scope?: string | undefined;
  readonly audience?: string | undefined;
  readonly resource?: string | readonly string[] | undefined;
  readonly authMethod?: string | undefined;
}

/** The fleet's side of one provider: the shared token, read, written, evicted, and refreshed. */
export interface SharedToken {
  /**
   * The fleet's token for a call that holds none: a fresh one from the cache, or one requested
   * with `request` (by this process, or by the one holding the lease) and written for the others.
   * `refused` is a token the service answered 401 to: it is never taken, and evicted when stored.
   */
  obtain(request: () => Promise<Token>, refused: string | undefined): Promise<Token>;
}

/**
 * Wraps a user's cache for one provider. `warn` writes a warning through the logger of the
 * client that made the latest call, if it has one; it is called once per provider.
 */
export function sharedToken(
  cache: TokenCache,
  identity: TokenIdentity,
  margin: number,
  warn: () => ((message: string) => void) | undefined,
): SharedToken {
  let keyPromise: Promise<string> | undefined;
  let warned = false;

  /** Writes `message` through the latest caller's logger, once per provider: the cache is to blame. */
  const warnOnce = (message: string) => {
    const report = warn();
    if (!warned && report) {
      warned = true;
      report(message);
    }
  };

  /** Runs one cache operation, bounded; `undefined` and a warning when it throws or stalls. */
  const attempt = async <T>(
    what: string,
    operation: (key: string) => T | PromiseLike<T>,
    secret?: string,
  ): Promise<Awaited<T> | undefined> => {
    try {
      keyPromise ??= cacheKey(identity);
      const key = await keyPromise;
      return await bounded(() => operation(key), tokenCacheDefaults.operationTimeoutMs);
    } catch (error) {
      warnOnce(
        `The OAuth token cache failed to ${what} (${describe(error, secret)}); this process uses its own token while the cache fails`,
      );
      return undefined;
    }
  };

  /**
   * What the cache holds; no token when there is none or it cannot be read. A stored token that
   * cannot be sent (written by another program, or by a version that did not check) is treated as
   * expired: this process asks for a new one and overwrites it, rather than failing every call.
   */
  const read = async (): Promise<Stored> => {
    const value = await attempt('read the token', (key) => cache.get(key));
    if (typeof value !== 'string') return nothingStored;
    const stored = parseStored(value, margin);
    if (stored.unsendable) {
      warnOnce(
        `The OAuth token cache held an access token that cannot be sent (${stored.unsendable}); it was ignored and will be replaced`,
      );
    }
    return stored;
  };

  /** A token to take: not refused, not due for refresh (so not expired either). */
  const fresh = (token: Token | undefined, refused: string | undefined): token is Token =>
    token !== undefined && token.value !== refused && Date.now() < token.refreshAt;

  /**
   * Requests a token and stores it for the fleet. A refused token still stored is evicted first,
   * so that the rest of the fleet stops sending it even if the request fails; only the process
   * that asks writes, so with a lease no other writer races the eviction.
   */
  const replace = async (
    request: () => Promise<Token>,
    stored: Token | undefined,
    refused: string | undefined,
  ): Promise<Token> => {
    if (refused !== undefined && stored?.value === refused) {
      const evicted = JSON.stringify({ evicted: stored.issuedAt });
      await attempt('evict a refused token', (key) =>
        cache.set(key, evicted, tokenCacheDefaults.leaseMs),
      );
    }
    const token = await request();
    const ttl =
      token.expiresAt === Infinity
        ? tokenCacheDefaults.untimedTokenTtlMs
        : Math.ceil(token.expiresAt - Date.now());
    // Awaited, so that a serverless function frozen after its answer has shared the token.
    if (ttl > 0) {
      await attempt(
        'store the token',
        (key) => cache.set(key, storedToken(token), ttl),
        token.value,
      );
    }
    return token;
  };

  const lease = cache.lease?.bind(cache);

  return {
    async obtain(request, refused) {
      const { token: stored, generation } = await read();
      if (fresh(stored, refused)) return stored;
      if (!lease) return replace(request, stored, refused);
      // A lease is never released, so it is taken for what it replaces: one that outlived its
      // refresh then holds up no later one.
      const leaseName = `:lease:${generation}`;
      const giveUpAt = Date.now() + tokenCacheDefaults.leaseMs;
      for (let poll = 0; ; poll++) {
        const taken = await attempt('take the lease', (key) =>
          lease(key + leaseName, tokenCacheDefaults.leaseMs),
        );
        // The cache failed (already warned): this process asks for itself.
        if (taken === undefined) return replace(request, undefined, refused);
        if (taken) {
          // A token may have landed since the first read, from a process whose lease ran out.
          const { token: latest } = await read();
          return fresh(latest, refused) ? latest : replace(request, latest, refused);
        }
        const left = giveUpAt - Date.now();
        if (left <= 0) return replace(request, undefined, refused);
        const pause = Math.min(
          tokenCacheDefaults.firstPollMs * 2 ** poll,
          tokenCacheDefaults.maxPollMs,
          left,
        );
        await new Promise((resolve) => setTimeout(resolve, pause));
        const { token: landed } = await read();
        if (fresh(landed, refused)) return landed;
      }
    },
  };
}

/**
 * `agentchat:oauth-token:` and the SHA-256 of the token request's identity, in hex: short, and
 * of characters every store takes in a key (Memcached's are at most 250 bytes, without spaces).
 */
async function cacheKey(identity: TokenIdentity): Promise<string> {
  const { tokenUrl, issuer, clientId, scope, audience, resource, authMethod } = identity;
  const fields: unknown[] = [tokenUrl, clientId, scope ?? null, audience ?? null];
  // Two configurations never share a token: a token for one resource is refused by another, and
  // one asked for by another client authentication may carry other claims. A configuration of
  // before these existed (a token URL and a secret sent by HTTP Basic) keeps the key it had, so
  // that a fleet upgraded one process at a time goes on sharing its token.
  if (
    issuer !== undefined ||
    resource !== undefined ||
    (authMethod ?? 'client_secret_basic') !== 'client_secret_basic'
  ) {
    fields.push(
      issuer ?? null,
      resource === undefined ? null : [resource].flat(),
      authMethod ?? null,
    );
  }
  const text = JSON.stringify(fields);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0'));
  return `agentchat:oauth-token:${hex.join('')}`;
}

/** The stored form: the token and its times, never the client secret. */
function storedToken(token: Token): string {
  const expiresAt = token.expiresAt === Infinity ? null : token.expiresAt;
  return JSON.stringify({ accessToken: token.value, issuedAt: token.issuedAt, expiresAt });
}

/**
 * What the cache holds: the token, if any, and its generation, which names what a lease to replace
 * it is taken for: the stored or evicted token, by when it was issued, else `none`.
 */
interface Stored {
  readonly token: Token | undefined;
  readonly generation: string;
  /** Why the stored access token cannot be sent, when that is why there is no token. */
  readonly unsendable?: string;
}

const nothingStored: Stored = { token: undefined, generation: 'none' };

/**
 * Reads the stored form back, with this provider's refresh margin. An evicted token, a token that
 * cannot be sent, or a value another program wrote under the key, holds no token.
 */
function parseStored(stored: string, margin: number): Stored {
  let data: unknown;
  try {
    data = JSON.parse(stored);
  } catch {
    return nothingStored;
  }
  if (typeof data !== 'object' || data === null) return nothingStored;
  const { accessToken, issuedAt, expiresAt, evicted } = data as Record<string, unknown>;
  // The evicted token's generation: whoever sees it, or the token, takes the same lease.
  if (typeof evicted === 'number') return { token: undefined, generation: String(evicted) };
  if (typeof issuedAt !== 'number') return nothingStored;
  const generation = String(issuedAt);
  // Its generation is kept, as an expired token's is: the fleet takes one lease to replace it.
  const unsendable = accessTokenProblem(accessToken);
  if (unsendable) return { token: undefined, generation, unsendable };
  const value = accessToken as string;
  if (expiresAt === null) {
    const token = { value, issuedAt, refreshAt: Infinity, expiresAt: Infinity };
    return { token, generation };
  }
  if (typeof expiresAt !== 'number' || expiresAt <= issuedAt) return nothingStored;
  const lifetime = expiresAt - issuedAt;
  const refreshAt = expiresAt - Math.min(margin, lifetime / 2);
  return { token: { value, issuedAt, refreshAt, expiresAt }, generation };
}

/** Settles as `operation` does, or rejects once `ms` have passed. */
async function bounded<T>(operation: () => T | PromiseLike<T>, ms: number): Promise<Awaited<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    // A sync throw becomes a rejection here, like an async one.
    return await Promise.race([
      new Promise<Awaited<T>>((resolve) => resolve(operation() as Awaited<T>)),
      stalled,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What went wrong, for the warning, with the token being stored taken out. */
function describe(error: unknown, secret: string | undefined): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return secret ? text.replaceAll(secret, '[redacted]') : text;
}
