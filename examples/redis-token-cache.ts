/**
 * A `TokenCache` over Redis (or Valkey), for `clientCredentials({ ..., cache })`: three commands.
 * examples/oauth-redis.ts uses it.
 */
import type { TokenCache } from 'agentchat';
import { createClient } from 'redis';

/** Connects to Redis at `url` and answers the cache over it, and how to disconnect. */
export async function connectTokenCache(url: string) {
  // While Redis is away, commands fail at once instead of queueing: the provider then goes on
  // with a token of its own, and warns once through the client's logger.
  const redis = createClient({ url, disableOfflineQueue: true });
  redis.on('error', () => {}); // reconnecting is the Redis client's job; failures reach the provider
  await redis.connect();
  const px = (ttlMs: number) => ({ type: 'PX', value: ttlMs }) as const;
  const cache: TokenCache = {
    get: (key) => redis.get(key),
    set: (key, value, ttlMs) => redis.set(key, value, { expiration: px(ttlMs) }),
    // SET NX PX: one process takes it, and it lapses by itself if that process dies.
    lease: async (key, ttlMs) =>
      (await redis.set(key, '1', { condition: 'NX', expiration: px(ttlMs) })) === 'OK',
  };
  return { cache, close: () => redis.close() };
}
