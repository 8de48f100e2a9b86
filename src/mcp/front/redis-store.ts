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
import { outageLog } from './outage-log.js';
import { STORE_BUDGET_MS, storeTimeLeft } from './store-budget.js';

/**
 * Bounds on every exchange with Redis, in milliseconds. A connection attempt; then each command's
 * reply within what is left of its request's budget (store-budget.ts): node-redis's own command
 * `timeout` bounds only the wait to be sent, not the reply, so a server that stalls with its
 * connections open (paused, or behind a partition that drops packets) would otherwise hold every
 * request forever. Commands are never queued while disconnected (`disableOfflineQueue`): they fail
 * at once.
 */
const CONNECT_TIMEOUT_MS = 2_000;
/** The longest wait between two attempts to reconnect, in milliseconds. */
const MAX_RECONNECT_WAIT_MS = 1_000;
/**
 * While the store is out, how often it is asked whether it is back (one PING at a time), in
 * milliseconds. Requests meanwhile fail at once without asking it: a flood during an outage
 * costs neither the store nor the log anything.
 */
const PROBE_INTERVAL_MS = 1_000;

/** How many distinct error replies of Redis are logged, each once. */
const MAX_ERROR_REPLIES_TOLD = 20;

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
  const { createClient, ErrorReply } = await import('redis');
  const client: Redis = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, MAX_RECONNECT_WAIT_MS),
    },
  });
  // Where the store is, for the log only (never its password, never an anonymous answer).
  const parsed = new URL(url);
  const where = `${parsed.protocol}//${parsed.host}`;
  const availability = outageLog(logger, `the store at ${where}`);
  /** Asks whether the store is back, one PING at a time, until it answers. */
  let probing = false;
  const probe = () => {
    if (probing || availability.detail === undefined) return;
    probing = true;
    // Through a promise: a client between connections may refuse the call as it is made.
    void replyWithin(
      Promise.resolve().then(() => client.ping()),
      STORE_BUDGET_MS,
    )
      .then(
        () => availability.up(),
        () => undefined,
      )
      .finally(() => {
        probing = false;
      });
  };
  let prober: ReturnType<typeof setInterval> | undefined;
  availability.onChange((out) => {
    clearInterval(prober);
    prober = out ? setInterval(probe, PROBE_INTERVAL_MS).unref() : undefined;
  });
  const fell = (error: unknown) => availability.down(reasonOf(error));
  // The client reconnects by itself; meanwhile each command fails at once, as an outage. Back
  // only once it answers: a paused server still accepts connections.
  client.on('error', fell);
  client.on('ready', probe);
  // Not awaited to the end: a store down at start is an outage like any other, told by /health.
  await Promise.race([
    client.connect().catch(fell),
    new Promise((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref()),
  ]);
  if (!client.isReady) fell(new Error(`no connection within ${CONNECT_TIMEOUT_MS} ms`));
  /**
   * Every command goes through here: during an outage it fails at once; otherwise its reply is
   * awaited within what is left of the request's budget. A failure, or no reply in time, is an
   * outage (told once) and a 503; a budget spent before the call is a 503 for this request only.
   */
  const redis = async <T>(command: (client: Redis) => Promise<T>): Promise<T> => {
    const waitMs = storeTimeLeft();
    if (availability.detail !== undefined || waitMs <= 0) throw new StoreUnavailableError();
    try {
      return await replyWithin(command(client), waitMs);
    } catch (error) {
      // An error reply (out of memory, read-only) comes from a store that answers: not an outage
      // to stop asking it for, but told once per kind all the same.
      if (error instanceof ErrorReply) refused(error.message);
      else fell(error);
      throw new StoreUnavailableError({ cause: error });
    }
  };
  /** The error replies told so far, a bounded few: each is told once. */
  const told = new Set<string>();
  const refused = (message: string) => {
    if (told.has(message) || told.size >= MAX_ERROR_REPLIES_TOLD) return;
    told.add(message);
    logger?.warn(
      `agentchat-mcp: sign-in front: the store at ${where} refused a command (${message}).`,
    );
  };
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
    outage: () => availability.detail,
    check: async () => {
      // During an outage the probe asks; otherwise a PING, within a budget of its own.
      if (availability.detail === undefined) await redis((r) => r.ping()).catch(() => undefined);
      return availability.detail;
    },
    close: async () => {
      clearInterval(prober);
      if (client.isOpen) client.destroy();
    },
  };
}

/** The key marking the record at `key` consumed. */
function consumedKeyOf(key: string): string {
  return `${PREFIX}consumed:${key.slice(PREFIX.length)}`;
}

/**
 * `pending`, or a rejection once `waitMs` have passed without its reply. The command stays in
 * node-redis's queue: a stalled server that resumes answers it, and the answer goes unread.
 */
function replyWithin<T>(pending: Promise<T>, waitMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      // After one more turn of the event loop's I/O: a process starved of CPU (a busy host) may
      // find the reply already arrived, which is not a stalled store.
      () => setImmediate(() => reject(new Error(`no reply within ${Math.round(waitMs)} ms`))),
      waitMs,
    );
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

/** What went wrong, in a line for the log. */
function reasonOf(error: unknown): string {
  return (error as Error)?.message || String(error);
}
