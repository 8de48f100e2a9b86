/**
 * The front's state in Redis (or Valkey), shared by replicas behind a load balancer: every
 * record a key with the lifetime oidc-provider gives it (a registered client: an idle lifetime
 * each use starts again), with an index per grant so that revoking a grant, or reusing a rotated
 * refresh token, reaches every record of its family on every replica. Redis bounds it: every key
 * expires (memory-store.ts's `lifetimeOf` for a record the engine gives no lifetime), and its
 * `maxmemory` caps the whole.
 */
import type { AdapterPayload } from 'oidc-provider';
import type * as RedisModule from 'redis';
import type { Logger } from '../../index.js';
import { CLIENT_IDLE_TTL_S, lifetimeOf } from './memory-store.js';
import { type FrontAdapter, type FrontStore, StoreUnavailableError } from './options.js';

/**
 * Bounds on every exchange with Redis, in milliseconds, so that a request needing the store
 * answers within 5 s when it is down or stalled: a connection attempt, and a command once sent.
 * Commands are never queued while disconnected (`disableOfflineQueue`): they fail at once.
 */
const CONNECT_TIMEOUT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 2_000;
/** The longest wait between two attempts to reconnect, in milliseconds. */
const MAX_RECONNECT_WAIT_MS = 1_000;

/** Where the front's keys live in a Redis it may share with other uses (the fleet token cache). */
const PREFIX = 'agentchat-mcp:front:';

/**
 * Marks a record consumed, once: `SET NX` of its consumed key, with the record's own expiry, in
 * one script so that nothing runs between reading the expiry and the mark. 1 for the call that
 * marked it, 0 when it was marked already or the record is gone.
 */
const CONSUME_ONCE = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
if ttl < 0 then ttl = tonumber(ARGV[2]) end
return redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ttl) and 1 or 0
`;

/**
 * A token bucket per caller, shared by every replica: `burst` at once, then one per `refillMs`
 * (ARGV: burst, refillMs). Redis's clock, so that replicas' clocks do not matter; the key expires
 * once the bucket would be full again. 1 when a registration is taken, 0 when none is left.
 */
const TAKE_REGISTRATION = `
local burst = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + (now - at) / refill)
local taken = 0
if tokens >= 1 then tokens = tokens - 1; taken = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * refill) + 1)
return taken
`;

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
export async function redisAdapter(url: string, logger?: Logger): Promise<FrontStore> {
  // Imported here, not at the top: see provider.ts's `engine`.
  const { createClient } = await import('redis');
  const client: Redis = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, MAX_RECONNECT_WAIT_MS),
    },
  });
  // Where the store is, for the log: never its password.
  const parsed = new URL(url);
  const where = `${parsed.protocol}//${parsed.host}`;
  let outage: string | undefined;
  const fell = (error: unknown) => {
    if (outage !== undefined) return;
    outage = `the store at ${where} cannot be reached (${(error as Error)?.message ?? String(error)})`;
    logger?.warn(
      `agentchat-mcp: sign-in front: ${outage}; requests that need it answer 503 until it is back.`,
    );
  };
  const back = () => {
    if (outage === undefined) return;
    outage = undefined;
    logger?.warn(`agentchat-mcp: sign-in front: the store at ${where} is reachable again.`);
  };
  // The client reconnects by itself; meanwhile each command fails at once, as an outage.
  client.on('error', fell);
  client.on('ready', back);
  // Not awaited to the end: a store down at start is an outage like any other, told by /health.
  await Promise.race([
    client.connect().catch(fell),
    new Promise((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref()),
  ]);
  if (!client.isReady) fell(new Error(`no connection within ${CONNECT_TIMEOUT_MS} ms`));
  /** Every command goes through here: a failure is an outage, told once, and a 503. */
  const redis = <T>(command: (client: Redis) => Promise<T>): Promise<T> =>
    command(client).then(
      (result) => {
        back();
        return result;
      },
      (error: unknown) => {
        fell(error);
        throw new StoreUnavailableError({ cause: error });
      },
    );
  const adapter = class RedisAdapter implements FrontAdapter {
    readonly #name: string;

    constructor(name: string) {
      this.#name = name;
    }

    #key(id: string): string {
      return `${PREFIX}${this.#name}:${id}`;
    }

    /** The key marking a record consumed, set once (see {@link CONSUME_ONCE}). */
    #consumedKey(id: string): string {
      return consumedKeyOf(this.#key(id));
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiration = {
        expiration: { type: 'EX', value: lifetimeOf(expiresIn) },
      } as const;
      const key = this.#key(id);
      const write = client.multi();
      write.set(key, JSON.stringify(payload), expiration);
      if (payload.grantId) {
        // The family lives as long as its longest-lived record: `GT` alone does nothing to a
        // key without an expiry (a new family), so `NX` gives it one first.
        const family = `${PREFIX}grant:${payload.grantId}`;
        write.sAdd(family, key);
        write.expire(family, expiration.expiration.value, 'NX');
        write.expire(family, expiration.expiration.value, 'GT');
      }
      if (payload.uid) {
        write.set(`${PREFIX}${this.#name}:uid:${payload.uid}`, id, expiration);
      }
      if (payload.userCode) {
        write.set(`${PREFIX}${this.#name}:userCode:${payload.userCode}`, id, expiration);
      }
      await redis(() => write.exec());
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const key = this.#key(id);
      const [text, consumed] = await redis((r) => r.mGet([key, this.#consumedKey(id)]));
      if (text === null || text === undefined) return undefined;
      // A client in use is kept: its idle lifetime starts again.
      if (this.#name === 'Client') await redis((r) => r.expire(key, CLIENT_IDLE_TTL_S));
      const payload = JSON.parse(text) as AdapterPayload;
      if (consumed) payload.consumed ??= Number(consumed);
      return payload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = await redis((r) => r.get(`${PREFIX}${this.#name}:uid:${uid}`));
      return id === null ? undefined : this.find(id);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = await redis((r) => r.get(`${PREFIX}${this.#name}:userCode:${userCode}`));
      return id === null ? undefined : this.find(id);
    }

    async consume(id: string): Promise<boolean> {
      const marked = await redis((r) =>
        r.eval(CONSUME_ONCE, {
          keys: [this.#key(id), this.#consumedKey(id)],
          // A record without an expiry (none is written so) marks it for a client's lifetime.
          arguments: [String(Math.floor(Date.now() / 1000)), String(CLIENT_IDLE_TTL_S * 1000)],
        }),
      );
      return marked === 1;
    }

    async destroy(id: string): Promise<void> {
      await redis((r) => r.del([this.#key(id), this.#consumedKey(id)]));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const family = `${PREFIX}grant:${grantId}`;
      const keys = await redis((r) => r.sMembers(family));
      await redis((r) => r.del([...keys, ...keys.map(consumedKeyOf), family]));
    }
  };
  return {
    adapter,
    async takeRegistration(caller, burst, refillMs) {
      const taken = await redis((r) =>
        r.eval(TAKE_REGISTRATION, {
          keys: [`${PREFIX}registrations:${caller}`],
          arguments: [String(burst), String(refillMs)],
        }),
      );
      return taken === 1;
    },
    outage: () => outage,
    check: async () => {
      await redis((r) => r.ping()).catch(() => undefined);
      return outage;
    },
    close: async () => {
      if (client.isOpen) client.destroy();
    },
  };
}

/** The key marking the record at `key` consumed. */
function consumedKeyOf(key: string): string {
  return `${PREFIX}consumed:${key.slice(PREFIX.length)}`;
}
