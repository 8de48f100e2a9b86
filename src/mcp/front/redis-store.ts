/**
 * The front's state in Redis (or Valkey), shared by replicas behind a load balancer: every
 * record a key with the lifetime oidc-provider gives it (a registered client: an idle lifetime
 * each use starts again), with an index per grant so that revoking a grant, or reusing a rotated
 * refresh token, reaches every record of its family on every replica. Redis bounds it: every key
 * expires, and its `maxmemory` caps the whole.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type * as RedisModule from 'redis';
import { CLIENT_IDLE_TTL_S } from './memory-store.js';
import type { FrontStore } from './options.js';

/** Where the front's keys live in a Redis it may share with other uses (the fleet token cache). */
const PREFIX = 'agentchat-mcp:front:';

/** What the adapter needs of a Redis client. */
type Redis = ReturnType<typeof RedisModule.createClient>;

/**
 * Connects to `url` and resolves with the adapter class, and the way to close the connection.
 *
 * @example
 * ```ts
 * const adapter = await redisAdapter('redis://cache.internal:6379');
 * ```
 */
export async function redisAdapter(url: string): Promise<FrontStore> {
  // Imported here, not at the top: see provider.ts's `engine`.
  const { createClient } = await import('redis');
  const redis: Redis = createClient({ url });
  // A lost connection is retried by the client; each command meanwhile fails, as a sign-in then.
  redis.on('error', () => {});
  await redis.connect();
  const adapter = class RedisAdapter implements Adapter {
    readonly #name: string;

    constructor(name: string) {
      this.#name = name;
    }

    #key(id: string): string {
      return `${PREFIX}${this.#name}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const ttl = expiresIn ?? (this.#name === 'Client' ? CLIENT_IDLE_TTL_S : undefined);
      const key = this.#key(id);
      const write = redis.multi();
      write.set(
        key,
        JSON.stringify(payload),
        ttl ? { expiration: { type: 'EX', value: ttl } } : {},
      );
      if (payload.grantId) {
        const family = `${PREFIX}grant:${payload.grantId}`;
        write.sAdd(family, key);
        if (ttl) write.expire(family, ttl, 'GT');
        else write.persist(family);
      }
      if (payload.uid) {
        const uid = `${PREFIX}${this.#name}:uid:${payload.uid}`;
        write.set(uid, id, ttl ? { expiration: { type: 'EX', value: ttl } } : {});
      }
      if (payload.userCode) {
        const code = `${PREFIX}${this.#name}:userCode:${payload.userCode}`;
        write.set(code, id, ttl ? { expiration: { type: 'EX', value: ttl } } : {});
      }
      await write.exec();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const key = this.#key(id);
      const text = await redis.get(key);
      if (text === null) return undefined;
      // A client in use is kept: its idle lifetime starts again.
      if (this.#name === 'Client') await redis.expire(key, CLIENT_IDLE_TTL_S);
      return JSON.parse(text) as AdapterPayload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = await redis.get(`${PREFIX}${this.#name}:uid:${uid}`);
      return id === null ? undefined : this.find(id);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = await redis.get(`${PREFIX}${this.#name}:userCode:${userCode}`);
      return id === null ? undefined : this.find(id);
    }

    async consume(id: string): Promise<void> {
      const key = this.#key(id);
      const text = await redis.get(key);
      if (text === null) return;
      const payload = JSON.parse(text) as AdapterPayload;
      payload.consumed = Math.floor(Date.now() / 1000);
      await redis.set(key, JSON.stringify(payload), { expiration: 'KEEPTTL' });
    }

    async destroy(id: string): Promise<void> {
      await redis.del(this.#key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const family = `${PREFIX}grant:${grantId}`;
      const keys = await redis.sMembers(family);
      await redis.del([...keys, family]);
    }
  };
  return {
    adapter,
    close: async () => {
      await redis.close();
    },
  };
}
