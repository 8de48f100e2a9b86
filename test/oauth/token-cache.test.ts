/**
 * clientCredentials({ cache }) in one process, through the public API: providers sharing a cache
 * stand for the processes of a fleet; the cache is a Map with the store's TTLs, or one that fails.
 * The clock is fake: the mock's tokens, the cache's timeout and the lease's waits all run on it.
 * token-cache-fleet.test.ts proves the same over a real Redis with separate processes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  Client,
  type ClientCredentialsOptions,
  ConfigurationError,
  clientCredentials,
  OAuthError,
  type TokenCache,
} from '../../src/index.js';
import { recordingLogger } from '../helpers/reliability.js';
import { useMockService } from '../helpers/use-mock-service.js';

const credentials = { clientId: 'reporting', clientSecret: 'token-cache:s3cret' };
const { mock } = useMockService({ oauthClients: [credentials], tokenLifetimeMs: 3_600_000 });
const tokenUrl = `${mock.baseUrl}/oauth/token`;

/**
 * SHA-256 digests under way. A digest (of the cache key) is the one step of a call that runs off
 * the event loop, in Web Crypto's thread pool, and so off the fake clock: `settle` moves the clock
 * only while none is under way. Moving it during one would let a busy machine, where a digest
 * takes many turns of the loop, run an attempt's timeout out before its work is done.
 */
let digestsUnderWay = 0;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const digest = crypto.subtle.digest.bind(crypto.subtle);
  vi.spyOn(crypto.subtle, 'digest').mockImplementation(async (algorithm, data) => {
    digestsUnderWay++;
    try {
      return await digest(algorithm, data);
    } finally {
      digestsUnderWay--;
    }
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A cache over a Map, honouring TTLs and leases on the (fake) clock, and recording every write. */
function memoryCache(options: { lease?: boolean } = {}) {
  const entries = new Map<string, { value: string; until: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    return entry && Date.now() < entry.until ? entry.value : undefined;
  };
  const writes: { key: string; value: string; ttlMs: number }[] = [];
  const cache: TokenCache = {
    get: async (key) => live(key),
    set: async (key, value, ttlMs) => {
      writes.push({ key, value, ttlMs });
      entries.set(key, { value, until: Date.now() + ttlMs });
    },
  };
  if (options.lease !== false) {
    cache.lease = async (key, ttlMs) => {
      if (live(key) !== undefined) return false;
      entries.set(key, { value: '1', until: Date.now() + ttlMs });
      return true;
    };
  }
  return { cache, entries, writes };
}

/** A client of its own provider: one process of the fleet. */
function processOf(cache: TokenCache, options: Partial<ClientCredentialsOptions> = {}) {
  const logger = recordingLogger();
  const apiKey = clientCredentials({ tokenUrl, ...credentials, cache, ...options });
  const client = new Client({ apiKey, baseUrl: mock.baseUrl, logger, logLevel: 'warn' });
  return { client, logger };
}

/** One real turn of the event loop, where the keys' SHA-256 digests settle (off the fake clock). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Waits, turn by turn and without moving the clock, until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await turn();
}

/**
 * Moves the fake clock on, 100 ms a turn, until `promise` settles; then answers it. A turn in which
 * a digest is under way leaves the clock where it is, so the clock counts only the waits that are
 * on it (the token endpoint's delay, the cache's timeouts, the lease's polls), however slow the
 * machine.
 */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await turn();
    if (digestsUnderWay === 0) await vi.advanceTimersByTimeAsync(100);
  }
  return promise;
}

const create = (client: Client) => client.projects.create({ name: 'Fleet', agentId: 'agent_1' });

describe('clientCredentials({ cache })', () => {
  it('shares one token between processes: the second takes it from the cache', async () => {
    const { cache } = memoryCache();
    const one = processOf(cache);
    const two = processOf(cache);

    await Promise.all(Array.from({ length: 10 }, () => create(one.client)));
    await Promise.all(Array.from({ length: 10 }, () => create(two.client)));

    expect(mock.oauth.tokenRequests()).toBe(1);
    const tokens = new Set(
      mock
        .requestLog()
        .map((r) => r.headers.authorization)
        .filter(Boolean),
    );
    expect(tokens.size).toBe(2); // the Basic of the token request, and the one bearer token
  });

  it('makes one token request for processes starting at once: the others wait on the lease', async () => {
    const { cache } = memoryCache();
    const fleet = Array.from({ length: 4 }, () => processOf(cache));
    // A slow token endpoint: every process is cold while the first request is under way.
    mock.enqueue({ kind: 'delay', ms: 1_000, path: '/oauth/token' });

    await settle(Promise.all(fleet.flatMap(({ client }) => [create(client), create(client)])));

    expect(mock.oauth.tokenRequests()).toBe(1);
  });

  it('without lease, lets a process ask for itself while another is asking, then shares', async () => {
    const { cache } = memoryCache({ lease: false });
    const [one, two, later] = Array.from({ length: 3 }, () => processOf(cache).client);
    mock.enqueue({ kind: 'delay', ms: 1_000, path: '/oauth/token' });

    const first = create(one as Client);
    await until(() => mock.oauth.tokenRequests() === 1); // under way, held for 1 s
    // With the clock still: the second process asks for itself at once, waiting on nothing. (Moving
    // the clock first could let the first token land, and be shared, before it looked.)
    const second = create(two as Client);
    await until(() => mock.oauth.tokenRequests() === 2);
    await settle(second);
    expect(mock.oauth.tokenRequests()).toBe(2);
    await settle(first);
    await create(later as Client);
    expect(mock.oauth.tokenRequests()).toBe(2);
  });

  it('keys the token by its request, never the secret; stores the token and its times only', async () => {
    const { cache, entries, writes } = memoryCache();
    await create(processOf(cache).client);
    await create(processOf(cache, { scope: 'projects:read' }).client);

    const [token, scoped] = mock.oauth.tokens();
    expect(writes).toHaveLength(2);
    expect(writes[0]?.key).toMatch(/^agentchat:oauth-token:[0-9a-f]{64}$/);
    expect(writes[1]?.key).not.toBe(writes[0]?.key);
    expect(JSON.parse(writes[0]?.value ?? '')).toEqual({
      accessToken: token?.accessToken,
      issuedAt: expect.any(Number),
      expiresAt: expect.any(Number),
    });
    // Kept until the token expires, and not longer.
    expect(writes[0]?.ttlMs).toBeGreaterThan(3600_000 - 1_000);
    expect(writes[0]?.ttlMs).toBeLessThanOrEqual(3600_000);
    expect(JSON.parse(writes[1]?.value ?? '').accessToken).toBe(scoped?.accessToken);
    const stored = JSON.stringify([...entries]);
    expect(stored).not.toContain(credentials.clientSecret);
    expect(stored).not.toContain(credentials.clientId);
  });

  it('refreshes from the cache: a process due to refresh takes a token another stored', async () => {
    const { cache } = memoryCache();
    const one = processOf(cache);
    const two = processOf(cache);
    await create(one.client);
    await create(two.client);

    // Past the refresh point (5 minutes before expiry): the first to call asks for a new token.
    vi.setSystemTime(Date.now() + 3600_000 - 60_000);
    await create(one.client);
    await vi.advanceTimersByTimeAsync(0);
    await create(two.client);
    await vi.advanceTimersByTimeAsync(0);
    await create(two.client);

    expect(mock.oauth.tokenRequests()).toBe(2);
    const [, fresh] = mock.oauth.tokens();
    expect(mock.requestLog().at(-1)?.headers.authorization).toBe(`Bearer ${fresh?.accessToken}`);
  });

  it('evicts a token the service refused, then stores its replacement', async () => {
    const { cache, writes } = memoryCache();
    const one = processOf(cache);
    const two = processOf(cache);
    await create(one.client);
    await create(two.client);
    const [refused] = mock.oauth.tokens();
    mock.oauth.revokeToken(refused?.accessToken ?? '');

    await create(one.client);
    await create(two.client);

    const [, replacement] = mock.oauth.tokens();
    expect(mock.oauth.tokenRequests()).toBe(2);
    expect(writes.map((write) => JSON.parse(write.value))).toEqual([
      expect.objectContaining({ accessToken: refused?.accessToken }),
      { evicted: expect.any(Number) },
      expect.objectContaining({ accessToken: replacement?.accessToken }),
    ]);
  });

  it('waits for the process holding the lease, re-reading with backoff, and takes its token', async () => {
    const { cache } = memoryCache();
    const gets = vi.spyOn(cache, 'get');
    const holder = processOf(cache);
    // Someone else holds every lease: this process may only wait and re-read.
    const waiter = processOf({ ...cache, lease: () => false });

    const call = create(waiter.client);
    await until(() => gets.mock.calls.length > 0);
    gets.mockClear();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(mock.oauth.tokenRequests()).toBe(0);
    const reads = gets.mock.calls.length;
    expect(reads).toBeGreaterThan(2);
    expect(reads).toBeLessThan(10); // backoff, not a busy loop
    await settle(create(holder.client));

    await expect(settle(call)).resolves.toMatchObject({ name: 'Fleet' });
    expect(mock.oauth.tokenRequests()).toBe(1);
  });

  it('asks for its own token when no token comes within the lease time', async () => {
    const { cache } = memoryCache();
    const gets = vi.spyOn(cache, 'get');
    const waiter = processOf({ ...cache, lease: () => false });

    const call = create(waiter.client);
    await until(() => gets.mock.calls.length > 0);
    await vi.advanceTimersByTimeAsync(9_800);
    expect(mock.oauth.tokenRequests()).toBe(0);

    await expect(settle(call)).resolves.toMatchObject({ name: 'Fleet' });
    expect(mock.oauth.tokenRequests()).toBe(1);
  });

  it('reads a value it cannot parse as no token, and replaces it', async () => {
    const { cache, writes } = memoryCache();
    // The key, as another program might have used it.
    const elsewhere = memoryCache();
    await create(processOf(elsewhere.cache).client);
    await cache.set(elsewhere.writes[0]?.key ?? '', 'not a token', 60_000);

    await create(processOf(cache).client);

    expect(mock.oauth.tokenRequests()).toBe(2);
    expect(JSON.parse(writes.at(-1)?.value ?? '').accessToken).toBe(
      mock.oauth.tokens()[1]?.accessToken,
    );
  });

  it('never stores a token the endpoint answered that cannot be sent; the next call asks again', async () => {
    const { cache, writes } = memoryCache();
    const { client } = processOf(cache);
    mock.enqueue({
      kind: 'status',
      status: 200,
      body: { access_token: 'at_bad\n', token_type: 'Bearer', expires_in: 3600 },
      path: '/oauth/token',
    });

    const error = await settle(create(client)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OAuthError);
    expect((error as Error).message).toContain('answered an access_token that cannot be sent');
    expect(writes).toEqual([]);
    // The lease taken for the failed request still holds the fleet back for its 10 s (as after
    // any failed token request), then this process asks again.
    await settle(create(client));
    expect(mock.oauth.tokenRequests()).toBe(2);
    expect(JSON.parse(writes.at(-1)?.value ?? '').accessToken).toBe(
      mock.oauth.tokens()[0]?.accessToken,
    );
  });

  it.each([
    ['a trailing space', 'at_stored '],
    ['a trailing line break', 'at_stored\n'],
    ['U+0100', 'at_\u0100stored'],
    ['a BEL', 'at_\u0007stored'],
    ['over 64 KiB', `at_${'x'.repeat(65_536)}`],
  ])(
    'ignores a stored token with %s as if expired, warns naming the cache, and replaces it',
    async (_name, bad) => {
      const { cache, writes } = memoryCache();
      // The key, as another program (or a version that did not check) wrote under it.
      const elsewhere = memoryCache();
      await create(processOf(elsewhere.cache).client);
      const key = elsewhere.writes[0]?.key ?? '';
      const now = Date.now();
      const stored = { accessToken: bad, issuedAt: now, expiresAt: now + 3600_000 };
      await cache.set(key, JSON.stringify(stored), 3600_000);
      const fleet = [processOf(cache), processOf(cache)];

      for (const { client } of fleet) await create(client);
      for (const { client } of fleet) await create(client);

      // One new token for both processes, written over the bad one; every call sent it.
      expect(mock.oauth.tokenRequests()).toBe(2);
      const replacement = mock.oauth.tokens()[1]?.accessToken;
      expect(JSON.parse(writes.at(-1)?.value ?? '')).toMatchObject({ accessToken: replacement });
      expect(
        mock
          .requestLog()
          .slice(-4)
          .map((r) => r.headers.authorization),
      ).toEqual(Array(4).fill(`Bearer ${replacement}`));
      const warnings = fleet.flatMap(({ logger }) => logger.lines.map((line) => line.text));
      expect(warnings[0]).toContain(
        'The OAuth token cache held an access token that cannot be sent',
      );
      expect(warnings.join('\n')).not.toContain('apiKey function');
      expect(warnings.join('\n')).not.toContain('at_');
    },
  );

  const failures: [string, () => TokenCache][] = [
    [
      'throws',
      () => ({
        get: () => {
          throw new Error('cache down');
        },
        set: () => {
          throw new Error('cache down');
        },
        lease: () => {
          throw new Error('cache down');
        },
      }),
    ],
    [
      'rejects',
      () => ({
        get: () => Promise.reject(new Error('cache down')),
        set: () => Promise.reject(new Error('cache down')),
        lease: () => Promise.reject(new Error('cache down')),
      }),
    ],
    [
      'stalls',
      () => ({
        get: () => new Promise<undefined>(() => {}),
        set: () => new Promise(() => {}),
        lease: () => new Promise<boolean>(() => {}),
      }),
    ],
  ];
  it.each(failures)('fails no call when the cache %s, and warns once', async (how, failing) => {
    const { client, logger } = processOf(failing());

    // A stalled operation is given up after 1 s of the fake clock.
    await expect(settle(create(client))).resolves.toMatchObject({ name: 'Fleet' });
    mock.oauth.expireTokens();
    await expect(settle(create(client))).resolves.toMatchObject({ name: 'Fleet' });

    expect(mock.oauth.tokenRequests()).toBe(2);
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).toMatch(
      how === 'stalls'
        ? /^agentchat: The OAuth token cache failed to read the token \(Error: no answer within 1000 ms\)/
        : /^agentchat: The OAuth token cache failed to read the token \(Error: cache down\)/,
    );
  });

  it('keeps the token it stores out of the warning when storing fails', async () => {
    const { cache } = memoryCache();
    const { client, logger } = processOf({
      ...cache,
      set: (_key, value) => {
        throw new Error(`cannot store ${value}`);
      },
    });

    await create(client);

    const [token] = mock.oauth.tokens();
    const [warning] = logger.lines.filter((line) => line.level === 'warn');
    expect(warning?.text).toMatch(/failed to store the token \(Error: cannot store .*\[redacted\]/);
    expect(warning?.text).not.toContain(token?.accessToken);
  });

  it('refuses a cache without get and set at once', () => {
    for (const cache of [{}, { get: () => undefined }, { get: 1, set: () => {} }, 'redis']) {
      expect(() =>
        clientCredentials({ tokenUrl, ...credentials, cache: cache as unknown as TokenCache }),
      ).toThrow(
        new ConfigurationError(
          'Invalid clientCredentials options: cache: expected an object with get and set functions, and optionally lease',
        ),
      );
    }
  });
});
