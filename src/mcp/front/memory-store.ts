/**
 * The front's state in this process's memory (oidc-provider's storage adapter): registrations,
 * interactions, codes, grants, refresh tokens, sessions and remembered consents. Every model is
 * bounded: past its cap the least recently used record goes, so a flood of registrations or of
 * abandoned authorizations costs a fixed amount of memory, and an unused registration expires.
 */
import type { AdapterPayload } from 'oidc-provider';
import type { FrontAdapter, FrontAdapterConstructor, FrontStore } from './options.js';

/** The most records each model keeps; a flood evicts the least recently used first. */
export const MAX_RECORDS_PER_MODEL = 5_000;

/**
 * How long a registered client that nobody uses is kept, in seconds: each use starts it again.
 * Hosts register again when their registration is gone.
 */
export const CLIENT_IDLE_TTL_S = 30 * 24 * 3600;

/**
 * The lifetime of a record, in seconds: the one the engine gives, else a client's idle
 * lifetime. The engine gives none to a client or to its registration access token (which lives as
 * long as the registration it manages); every record still expires, in every store.
 */
export function lifetimeOf(expiresIn: number | undefined): number {
  return expiresIn !== undefined && expiresIn > 0 ? expiresIn : CLIENT_IDLE_TTL_S;
}

interface Entry {
  readonly payload: AdapterPayload;
  /** Milliseconds since the epoch, or `undefined` for no expiry. */
  expiresAt: number | undefined;
}

/**
 * A storage adapter class whose models live in one bounded map each, shared by every instance
 * oidc-provider makes of it.
 *
 * @example
 * ```ts
 * const adapter = memoryAdapter();
 * new Provider(issuer, { adapter });
 * ```
 */
export function memoryAdapter(maxRecords = MAX_RECORDS_PER_MODEL): FrontAdapterConstructor {
  const models = new Map<string, Map<string, Entry>>();
  const modelOf = (name: string) => {
    let records = models.get(name);
    if (records === undefined) {
      records = new Map();
      models.set(name, records);
    }
    return records;
  };

  return class MemoryAdapter implements FrontAdapter {
    readonly #name: string;
    readonly #records: Map<string, Entry>;

    constructor(name: string) {
      this.#name = name;
      this.#records = modelOf(name);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      this.#records.delete(id);
      this.#records.set(id, {
        payload,
        expiresAt: Date.now() + lifetimeOf(expiresIn) * 1000,
      });
      // Maps keep insertion order: the first keys are the least recently used.
      for (const key of this.#records.keys()) {
        if (this.#records.size <= maxRecords) break;
        this.#records.delete(key);
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const entry = this.#records.get(id);
      if (entry === undefined) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
        this.#records.delete(id);
        return undefined;
      }
      // Used: the most recent now, and a client's idle time starts again.
      this.#records.delete(id);
      this.#records.set(id, entry);
      if (this.#name === 'Client') entry.expiresAt = Date.now() + CLIENT_IDLE_TTL_S * 1000;
      return entry.payload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      for (const [id, entry] of this.#records) {
        if (entry.payload.uid === uid) return this.find(id);
      }
      return undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      for (const [id, entry] of this.#records) {
        if (entry.payload.userCode === userCode) return this.find(id);
      }
      return undefined;
    }

    async consume(id: string): Promise<boolean> {
      // No await between the check and the mark: one call alone sees it unconsumed.
      const entry = this.#records.get(id);
      if (entry === undefined || entry.payload.consumed !== undefined) return false;
      entry.payload.consumed = Math.floor(Date.now() / 1000);
      return true;
    }

    async destroy(id: string): Promise<void> {
      this.#records.delete(id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      // Revocation is rare and every model is bounded: a scan costs less than an index kept.
      for (const records of models.values()) {
        for (const [id, entry] of records) {
          if (entry.payload.grantId === grantId) records.delete(id);
        }
      }
    }
  };
}

/**
 * The memory store: {@link memoryAdapter}, and registrations counted per caller in this process
 * (at most {@link MAX_RECORDS_PER_MODEL} callers, the least recently seen forgotten first).
 *
 * @example
 * ```ts
 * const store = memoryStore();
 * await store.takeRegistration('192.0.2.7', 20, 3_000);
 * ```
 */
export function memoryStore(): FrontStore {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    adapter: memoryAdapter(),
    async takeRegistration(caller, burst, refillMs) {
      const now = performance.now();
      const bucket = buckets.get(caller) ?? { tokens: burst, at: now };
      buckets.delete(caller);
      bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) / refillMs);
      bucket.at = now;
      const taken = bucket.tokens >= 1;
      if (taken) bucket.tokens -= 1;
      buckets.set(caller, bucket);
      for (const key of buckets.keys()) {
        if (buckets.size <= MAX_RECORDS_PER_MODEL) break;
        buckets.delete(key);
      }
      return taken;
    },
    // This process's memory is always there.
    outage: () => undefined,
    check: async () => undefined,
    close: async () => {},
  };
}
