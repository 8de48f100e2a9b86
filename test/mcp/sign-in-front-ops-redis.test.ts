/**
 * The sign-in front's Redis store as an operator runs it: a real redis-server, every key the
 * front writes with an expiry, after a whole sign-in, a refresh and registrations; and the store
 * killed mid-run: the requests that need it answer 503 with `Retry-After` at once, one line is
 * logged for the outage, `/health` answers 503 until it is back, then everything works again.
 */
import type { Server } from 'node:http';
import type { Browser } from 'playwright';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import {
  type SignInFront,
  signInThroughFront,
  startSignInFront,
  tokenRequest,
} from '../helpers/sign-in-front.js';
import {
  launchChromium,
  registerPublicClient,
  startRedirectTarget,
} from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_redis_ops_2b9e';

let redis: RedisServer;
/** What the front logged at `warn`, in order. */
const warnings: string[] = [];
const logger = {
  error: () => {},
  warn: (message: string) => warnings.push(message),
  info: () => {},
  debug: () => {},
};
let front: SignInFront;
let browser: Browser;
let redirect: { url: string; server: Server };

beforeAll(async () => {
  [redis, browser, redirect] = await Promise.all([
    startRedisServer(),
    launchChromium(),
    startRedirectTarget(),
  ]);
  front = await startSignInFront(SERVER_KEY, undefined, { store: redis.url, logger });
}, 60_000);
afterAll(async () => {
  await front?.close();
  await browser?.close();
  redirect?.server.close();
  await redis?.kill();
});

/** Every key in `url`'s Redis, with its TTL in seconds (-1: none). */
async function keysWithTtl(url: string): Promise<Map<string, number>> {
  const client = createClient({ url });
  await client.connect();
  try {
    const found = new Map<string, number>();
    for await (const keys of client.scanIterator({ COUNT: 1000 })) {
      for (const key of keys) found.set(key, await client.ttl(key));
    }
    return found;
  } finally {
    await client.close();
  }
}

describe('the sign-in front in Redis', { timeout: 90_000 }, () => {
  it('writes every key with an expiry: registrations, a sign-in, a refresh', async () => {
    const { clientId, tokens } = await signInThroughFront(browser, front.origin, redirect.url);
    const refreshed = await tokenRequest(front.origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token as string,
      client_id: clientId,
    });
    expect(refreshed.refresh_token).toBeTruthy();
    expect((await registerPublicClient(front.origin, redirect.url, 'Another Host')).status).toBe(
      201,
    );

    const keys = await keysWithTtl(redis.url);
    const kinds = new Set([...keys.keys()].map((key) => key.split(':')[2]));
    // What a sign-in leaves: clients, their registration tokens, grants and their families,
    // refresh tokens, sessions, consents, the registration limit's buckets.
    for (const kind of ['Client', 'RegistrationAccessToken', 'Grant', 'grant', 'RefreshToken']) {
      expect(kinds).toContain(kind);
    }
    const lasting = [...keys].filter(([, ttl]) => ttl <= 0);
    expect(lasting).toEqual([]);
  });
});

/** A registration's answer, and how long it took in milliseconds. */
async function timedRegistration(): Promise<{ response: Response; elapsedMs: number }> {
  const started = performance.now();
  const response = await fetch(`${front.origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Host During Outage',
      redirect_uris: [redirect.url],
      token_endpoint_auth_method: 'none',
    }),
    signal: AbortSignal.timeout(30_000),
  });
  return { response, elapsedMs: performance.now() - started };
}

describe('the sign-in front through a Redis outage', { timeout: 120_000 }, () => {
  it('answers 503 with Retry-After within 5 s, logs once, and recovers when Redis is back', async () => {
    expect((await fetch(`${front.origin}/health`)).status).toBe(200);
    const { tokens, clientId } = await signInThroughFront(browser, front.origin, redirect.url);
    warnings.length = 0;

    await redis.kill();
    for (let round = 0; round < 5; round++) {
      const { response, elapsedMs } = await timedRegistration();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toMatchObject({ error: 'temporarily_unavailable' });
      // Bounded by the request's budget for the store (3 s), not by the machine: a hang would be 30 s.
      expect(elapsedMs).toBeLessThan(5_000);
    }
    const refresh = await fetch(`${front.origin}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token as string,
        client_id: clientId,
      }),
    });
    expect(refresh.status).toBe(503);
    expect(refresh.headers.get('retry-after')).toBe('5');
    const health = await fetch(`${front.origin}/health`);
    expect(health.status).toBe(503);
    // In general words: where the store is, and its error, are the log's.
    expect(await health.json()).toEqual({
      status: 'unavailable',
      problem: 'the store cannot be reached',
    });
    // The metadata needs no store: still served.
    expect((await fetch(`${front.origin}/.well-known/oauth-authorization-server`)).status).toBe(
      200,
    );
    // One line for the outage, however many requests met it; never a password or a token.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/store at redis:\/\/127\.0\.0\.1:\d+ cannot be reached/);

    await redis.restart();
    await expect
      .poll(async () => (await fetch(`${front.origin}/health`)).status, { timeout: 30_000 })
      .toBe(200);
    const again = await signInThroughFront(browser, front.origin, redirect.url);
    expect(again.tokens.access_token).toBeTruthy();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/reachable again/);
  });
});
