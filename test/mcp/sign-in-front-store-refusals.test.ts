/**
 * A Redis that answers but refuses writes (out of memory under `maxmemory` with no eviction): the
 * requests that write answer 503 with `Retry-After` in general words, and the refusal is logged
 * once, not once per request, nor as an outage that goes and comes back with every read.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { type SignInFront, startSignInFront, warningsInto } from '../helpers/sign-in-front.js';

const REGISTRATIONS = 40;

let redis: RedisServer;
let front: SignInFront;
/** What the front logged at `warn` or `error`, in order. */
const warnings: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  front = await startSignInFront('sk_front_store_refusals_3e8a', undefined, {
    store: redis.url,
    logger: warningsInto(warnings),
  });
}, 60_000);
afterAll(async () => {
  await front?.close();
  await redis?.kill();
});

/** Sets Redis's `maxmemory` (bytes; 0 for none). */
async function setMaxMemory(bytes: number): Promise<void> {
  const admin = createClient({ url: redis.url });
  await admin.connect();
  try {
    await admin.configSet('maxmemory', String(bytes));
  } finally {
    await admin.close();
  }
}

describe('a Redis that refuses writes', { timeout: 60_000 }, () => {
  it('answers each registration 503 and logs the refusal once', async () => {
    expect((await fetch(`${front.origin}/health`)).status).toBe(200);
    await setMaxMemory(1);
    try {
      for (let sent = 0; sent < REGISTRATIONS; sent++) {
        const response = await fetch(`${front.origin}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            redirect_uris: ['http://127.0.0.1:9/callback'],
            token_endpoint_auth_method: 'none',
          }),
        });
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        const body = await response.text();
        expect(body).toMatch(/store/);
        expect(body).not.toMatch(/OOM|maxmemory|redis:|127\.0\.0\.1/);
      }
      // Reads still answer: the store is there, and the front still serves what needs no write.
      expect((await fetch(`${front.origin}/health`)).status).toBe(200);
      expect(warnings).toEqual([
        expect.stringMatching(/the store at redis:\/\/\S+ refused a command \(OOM/),
      ]);
    } finally {
      await setMaxMemory(0);
    }
  });
});
