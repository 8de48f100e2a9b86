/**
 * The sign-in front's Redis store as an operator runs it: a real redis-server, every key the
 * front writes with an expiry, after a whole sign-in, a refresh and registrations.
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
let front: SignInFront;
let browser: Browser;
let redirect: { url: string; server: Server };

beforeAll(async () => {
  [redis, browser, redirect] = await Promise.all([
    startRedisServer(),
    launchChromium(),
    startRedirectTarget(),
  ]);
  front = await startSignInFront(SERVER_KEY, undefined, { store: redis.url });
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
