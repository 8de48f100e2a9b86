/**
 * A fleet sharing one OAuth token through a real Redis: four separate Node processes
 * (fleet-worker.ts), each with its own client and the adapter of examples/redis-token-cache.ts,
 * against the mock service over HTTP on 127.0.0.1. What the fleet saves shows in the mock's count
 * of token requests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { tsxLoader } from '../helpers/run-process.js';
import type { FleetCommand, FleetSetup } from './fleet-worker.js';

const workerFile = fileURLToPath(new URL('./fleet-worker.ts', import.meta.url));
const credentials = { clientId: 'fleet-service', clientSecret: 'fleet:secret/+42' };
const FLEET_SIZE = 4;
const CALLS = 25;

interface WaveResult {
  ok: number;
  failures: string[];
}

/** One worker process: the answers to its commands, and the warnings its clients logged. */
interface Worker {
  send(command: FleetCommand): Promise<WaveResult>;
  readonly warnings: string[];
  stop(): Promise<void>;
}

// One fleet for the file (starting four processes is the slow part); each test brings its own
// Redis and mock service, and the workers make a client for each on first use.
let fleet: Worker[] = [];
beforeAll(async () => {
  fleet = await Promise.all(Array.from({ length: FLEET_SIZE }, () => startWorker()));
}, 120_000);
afterAll(() => Promise.all(fleet.map((worker) => worker.stop())));

let redis: RedisServer | undefined;
let server: MockServer | undefined;
let setup: FleetSetup | undefined;
afterEach(async () => {
  await Promise.all(fleet.map((worker) => worker.send({ reset: true })));
  for (const worker of fleet) worker.warnings.length = 0;
  await redis?.kill();
  await server?.close();
});

/** Starts Redis and the mock service for one test. */
async function startCacheAndService(
  options: { tokenLifetimeMs?: number; refreshMarginMs?: number } = {},
) {
  redis = await startRedisServer();
  server = await startMockServer({
    oauthClients: [credentials],
    tokenLifetimeMs: options.tokenLifetimeMs ?? 3_600_000,
  });
  setup = {
    redisUrl: redis.url,
    baseUrl: server.baseUrl,
    ...credentials,
    refreshMarginMs: options.refreshMarginMs ?? 300_000,
  };
  return { redis, service: server.service };
}

function startWorker(): Promise<Worker> {
  const child = spawn(process.execPath, [...tsxLoader, workerFile], {
    env: { ...process.env, AGENTCHAT_LOG: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const warnings: string[] = [];
  const waiting: ((result: WaveResult) => void)[] = [];
  const worker: Worker = {
    warnings,
    send(command) {
      const answer = new Promise<WaveResult>((resolve) => waiting.push(resolve));
      child.stdin.write(`${JSON.stringify(command)}\n`);
      return answer;
    },
    stop: () => stopProcess(child),
  };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fleet worker exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { ready?: true; warn?: string } & Partial<WaveResult>;
      if (message.ready) resolve(worker);
      else if (message.warn !== undefined) warnings.push(message.warn);
      else waiting.shift()?.({ ok: message.ok ?? 0, failures: message.failures ?? [] });
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

/** Every worker runs one wave of concurrent calls at the same time. */
async function wave(): Promise<WaveResult[]> {
  const wave = setup;
  if (!wave) throw new Error('startCacheAndService first');
  return Promise.all(fleet.map((worker) => worker.send({ wave, calls: CALLS })));
}

const allSucceeded = Array.from({ length: FLEET_SIZE }, () => ({ ok: CALLS, failures: [] }));

/** The bearer tokens the service saw, in order, and the statuses it answered them. */
function serviceCalls(requests: MockServer['service']['requests']) {
  return requests
    .filter((request) => !request.path.endsWith('/oauth/token'))
    .map((request) => ({
      token: request.headers.authorization?.replace(/^Bearer /, ''),
      status: request.status,
    }));
}

/** Resolves once the clock has passed `time`: a token's real lifetime, which no fake clock moves. */
function clockPast(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now() + 1)));
}

/** Everything stored in Redis, key by key. */
async function storedEntries(url: string): Promise<Record<string, string | null>> {
  const client = await createClient({ url }).connect();
  try {
    const keys = await client.keys('*');
    const entries = await Promise.all(keys.map(async (key) => [key, await client.get(key)]));
    return Object.fromEntries(entries);
  } finally {
    await client.close();
  }
}

describe('clientCredentials({ cache }) across processes, over Redis', { timeout: 60_000 }, () => {
  it('4 processes x 25 cold calls make one token request, and a second wave makes none', async () => {
    const { redis, service } = await startCacheAndService();

    expect(await wave()).toEqual(allSucceeded);
    expect(service.oauth.tokenRequests()).toBe(1);
    expect(await wave()).toEqual(allSucceeded);
    expect(service.oauth.tokenRequests()).toBe(1);

    const [token] = service.oauth.tokens();
    const calls = serviceCalls(service.requestLog());
    expect(calls).toHaveLength(2 * FLEET_SIZE * CALLS);
    expect(calls.every((call) => call.token === token?.accessToken && call.status === 201)).toBe(
      true,
    );
    // The key names neither the client nor its secret; the value holds the token, not the secret.
    const entries = await storedEntries(redis.url);
    const tokenKey = Object.keys(entries).find((key) => !key.includes(':lease:'));
    expect(tokenKey).toMatch(/^agentchat:oauth-token:[0-9a-f]{64}$/);
    expect(entries[tokenKey ?? '']).toContain(token?.accessToken);
    expect(JSON.stringify(entries)).not.toContain(credentials.clientSecret);
    expect(JSON.stringify(entries)).not.toContain(encodeURIComponent(credentials.clientSecret));
    expect(fleet.flatMap((worker) => worker.warnings)).toEqual([]);
  });

  it('refreshes a token expiring mid-run once for the fleet, ahead of its expiry', async () => {
    // A 16-second token, due for refresh 5 s before it expires. Each wave must end inside a window
    // (before the refresh point, before expiry, before the successor's refresh point at about
    // 22 s): 5 s and more each, so that a loaded machine's slow waves still fit.
    const { service } = await startCacheAndService({
      tokenLifetimeMs: 16_000,
      refreshMarginMs: 5_000,
    });
    expect(await wave()).toEqual(allSucceeded);
    const [first] = service.oauth.tokens();
    const issuedAt = first?.issuedAt ?? 0;
    const expiresAt = first?.expiresAt ?? 0;

    // Inside the refresh window: the calls go on with the token, and the fleet refreshes it.
    await clockPast(issuedAt + 11_100);
    expect(await wave()).toEqual(allSucceeded);
    // Once it has expired, every call carries its successor; nobody asks again.
    await clockPast(expiresAt + 100);
    const before = service.requestLog().length;
    expect(await wave()).toEqual(allSucceeded);

    expect(service.oauth.tokenRequests()).toBe(2);
    const [, second] = service.oauth.tokens();
    expect(second?.issuedAt).toBeLessThan(expiresAt);
    const lastWave = serviceCalls(service.requestLog().slice(before));
    expect(lastWave).toHaveLength(FLEET_SIZE * CALLS);
    expect(lastWave.every((call) => call.token === second?.accessToken)).toBe(true);
  });

  it('evicts a token the service refused and replaces it once for the fleet', async () => {
    const { redis, service } = await startCacheAndService();
    expect(await wave()).toEqual(allSucceeded);
    const [first] = service.oauth.tokens();
    service.oauth.revokeToken(first?.accessToken ?? '');

    expect(await wave()).toEqual(allSucceeded);

    expect(service.oauth.tokenRequests()).toBe(2);
    const [, second] = service.oauth.tokens();
    const stored = JSON.stringify(await storedEntries(redis.url));
    expect(stored).toContain(second?.accessToken);
    expect(stored).not.toContain(first?.accessToken);
    // After the refusals, every call went through on the new token.
    const lastWave = serviceCalls(service.requestLog())
      .filter((call) => call.status === 201)
      .slice(-CALLS * 4);
    expect(lastWave.every((call) => call.token === second?.accessToken)).toBe(true);
  });

  it('ignores a stored token that cannot be sent, and replaces it once for the fleet', async () => {
    const { redis, service } = await startCacheAndService();
    // Another program (or an older version) stored a token with a trailing space under the key:
    // every fresh process of the fleet reads it first.
    const tokenUrl = `${setup?.baseUrl}/oauth/token`;
    const identity = JSON.stringify([tokenUrl, credentials.clientId, null, null]);
    const key = `agentchat:oauth-token:${createHash('sha256').update(identity).digest('hex')}`;
    const now = Date.now();
    const bad = { accessToken: 'at_stored_bad ', issuedAt: now, expiresAt: now + 3_600_000 };
    const writer = await createClient({ url: redis.url }).connect();
    await writer.set(key, JSON.stringify(bad), { expiration: { type: 'PX', value: 3_600_000 } });
    await writer.close();

    expect(await wave()).toEqual(allSucceeded);
    expect(await wave()).toEqual(allSucceeded);

    expect(service.oauth.tokenRequests()).toBe(1);
    const [token] = service.oauth.tokens();
    expect(JSON.parse((await storedEntries(redis.url))[key] ?? '{}')).toMatchObject({
      accessToken: token?.accessToken,
    });
    // Each process that read it says so, once, naming the cache.
    const warnings = fleet.flatMap((worker) => worker.warnings);
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) {
      expect(warning).toContain('The OAuth token cache held an access token that cannot be sent');
    }
  });

  it('fails no call when the cache is killed mid-run, and each process warns once', async () => {
    const { redis, service } = await startCacheAndService();
    expect(await wave()).toEqual(allSucceeded);

    await redis.kill();
    // The service now refuses the fleet's token: each process must get another without Redis.
    service.oauth.expireTokens();
    expect(await wave()).toEqual(allSucceeded);
    service.oauth.expireTokens();
    expect(await wave()).toEqual(allSucceeded);

    // The first token, then one per process per refusal: nothing shared, nothing failed.
    expect(service.oauth.tokenRequests()).toBe(1 + 2 * FLEET_SIZE);
    for (const worker of fleet) {
      expect(worker.warnings).toHaveLength(1);
      expect(worker.warnings[0]).toMatch(
        /^agentchat: The OAuth token cache failed to read the token \(.+\); this process uses its own token/,
      );
    }
    const tokens = service.oauth.tokens().map((token) => token.accessToken);
    for (const warning of fleet.flatMap((worker) => worker.warnings)) {
      expect(tokens.some((token) => warning.includes(token))).toBe(false);
      expect(warning).not.toContain(credentials.clientSecret);
    }
  });
});
