/**
 * The sign-in front's Redis store failing under two replicas: `agentchat-mcp --http
 * --upstream-issuer --store redis://...` as child processes sharing one redis-server, which is
 * paused (SIGSTOP: its connections stay open and nothing answers, as a stalled server or a
 * partition without a reset looks), resumed, killed and restarted. Every endpoint that needs the
 * store answers 503 with `Retry-After` within 5 s by the request's own clock, a flood meanwhile
 * writes nothing to the log but one line when the store goes and one when it is back, and no
 * answer tells the caller where the store or the identity provider is, or what their errors were.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FrontProcess, startFrontProcess } from '../helpers/front-process.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { authorizationUrl, registerPublicClient } from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_store_outage_7c1d';
/** The contract's bound on an answer while the store is out, in milliseconds. */
const ANSWER_WITHIN_MS = 5_000;
/** Where hosts are sent back: a loopback URI nothing fetches. */
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

let redis: RedisServer;
let replicas: FrontProcess[] = [];
/** Each replica's client, registered while the store was up. */
const clientIds: string[] = [];
/** Every answer the replicas gave while something was out: status, headers and body. */
const answers: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = JSON.stringify(await exportJWK(privateKey));
  replicas = await Promise.all(
    [0, 1].map(() =>
      startFrontProcess({
        serverKey: SERVER_KEY,
        binArguments: ['--store', redis.url],
        env: { AGENTCHAT_SIGNING_KEY: signingKey },
      }),
    ),
  );
}, 60_000);
afterAll(async () => {
  redis?.resume();
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis?.kill();
});

/** A request to one endpoint that needs the store. */
interface Call {
  readonly name: string;
  readonly path: string;
  readonly init?: RequestInit;
}

/** The endpoints of `replica` that need the store, `clientId` its registered client. */
function callsTo(clientId: string): Call[] {
  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const authorize = authorizationUrl('http://front', clientId, REDIRECT_URI);
  return [
    { name: 'GET /health', path: '/health' },
    {
      name: 'POST /register',
      path: '/register',
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Host During Outage',
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: 'none',
        }),
      },
    },
    { name: 'GET /authorize', path: `${authorize.pathname}${authorize.search}` },
    {
      name: 'POST /token',
      path: '/token',
      init: form({
        grant_type: 'refresh_token',
        refresh_token: randomBytes(32).toString('base64url'),
        client_id: clientId,
      }),
    },
    {
      name: 'POST /revoke',
      path: '/revoke',
      init: form({ token: randomBytes(32).toString('base64url'), client_id: clientId }),
    },
    {
      name: 'GET /oauth/callback',
      path: `/oauth/callback?state=${randomBytes(16).toString('base64url')}&code=x`,
    },
  ];
}

/** One request's answer, its whole text kept, and how long it took by its own clock. */
async function timed(
  origin: string,
  call: Call,
): Promise<{ name: string; status: number; retryAfter: string | null; elapsedMs: number }> {
  const started = performance.now();
  const response = await fetch(`${origin}${call.path}`, {
    ...call.init,
    redirect: 'manual',
    // A hang fails the test here, with its name, rather than at the test's timeout.
    signal: AbortSignal.timeout(15_000),
  });
  const body = await response.text();
  const elapsedMs = performance.now() - started;
  answers.push(`${response.status} ${[...response.headers].join(' ')} ${body}`);
  return {
    name: call.name,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    elapsedMs,
  };
}

/** Every endpoint of both replicas at once: each must answer 503, saying when to come back, in time. */
async function expectEveryEndpointUnavailable(): Promise<void> {
  const results = await Promise.all(
    replicas.flatMap((replica, index) =>
      callsTo(clientIds[index] as string).map((call) => timed(replica.origin, call)),
    ),
  );
  for (const result of results) {
    expect(result, result.name).toMatchObject({ status: 503, retryAfter: '5' });
    expect(result.elapsedMs, result.name).toBeLessThan(ANSWER_WITHIN_MS);
  }
}

/** Waits for both replicas to be ready again, then registers at each: served again. */
async function expectServedAgain(): Promise<void> {
  for (const replica of replicas) {
    await expect
      .poll(async () => (await fetch(`${replica.origin}/health`)).status, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(200);
    expect((await registerPublicClient(replica.origin, REDIRECT_URI)).status).toBe(201);
  }
}

/** How many lines each replica has written on standard error so far. */
function logLengths(): number[] {
  return replicas.map((replica) => replica.bin.stderr().split('\n').length);
}

/**
 * What each replica wrote since `lengths` (logLengths): exactly one line as the store went and one
 * as it came back, however many requests met the outage; never a stack, never a line per request.
 */
function expectOneLineEachWay(lengths: number[]): void {
  for (const [index, replica] of replicas.entries()) {
    const lines = replica.bin
      .stderr()
      .split('\n')
      .slice((lengths[index] as number) - 1)
      .filter((line) => line.trim() !== '');
    expect(lines, `replica ${index}'s log`).toEqual([
      expect.stringMatching(/the store at redis:\/\/127\.0\.0\.1:\d+ cannot be reached \(.+\)/),
      expect.stringMatching(/the store at redis:\/\/127\.0\.0\.1:\d+ is reachable again/),
    ]);
  }
}

describe('two replicas of the sign-in front sharing a Redis that fails', {
  timeout: 120_000,
}, () => {
  it('serves, with the store up, a client registered at either replica from both', async () => {
    for (const replica of replicas) {
      const { status, clientId } = await registerPublicClient(replica.origin, REDIRECT_URI);
      expect(status).toBe(201);
      clientIds.push(clientId);
    }
    // One store: the first replica's client is known to the second.
    const elsewhere = await fetch(
      authorizationUrl(replicas[1]?.origin as string, clientIds[0] as string, REDIRECT_URI),
      { redirect: 'manual' },
    );
    expect(elsewhere.status).toBe(303);
  });

  it('answers every endpoint 503 within 5 s while Redis is stalled (SIGSTOP), and serves once it goes on', async () => {
    const lengths = logLengths();
    redis.pause();
    // First while each replica still believes the store is there: each call meets the stall.
    await expectEveryEndpointUnavailable();
    // Then once the stall is known.
    await expectEveryEndpointUnavailable();
    redis.resume();
    await expectServedAgain();
    expectOneLineEachWay(lengths);
  });

  it('answers a flood 503 within 5 s while Redis is killed, logging it once, and serves once it is restarted', async () => {
    const lengths = logLengths();
    await redis.kill();
    await expectEveryEndpointUnavailable();
    // Hundreds of requests: each answered in time, none asking the store, none logged.
    for (let round = 0; round < 25; round++) {
      await expectEveryEndpointUnavailable();
    }
    await redis.restart();
    await expectServedAgain();
    expectOneLineEachWay(lengths);
  });

  it('told no caller where the store or the identity provider is, nor what they said', () => {
    const store = new URL(redis.url);
    const secrets = [
      'redis://',
      `${store.hostname}:${store.port}`,
      `:${store.port}`,
      ...replicas.flatMap(({ upstream }) => [upstream.issuer, `:${new URL(upstream.issuer).port}`]),
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'no reply within',
      'Socket',
      'StoreUnavailable',
    ];
    expect(answers.length).toBeGreaterThan(300);
    for (const answer of answers) {
      for (const secret of secrets) expect(answer).not.toContain(secret);
      // What failed, in general words.
      expect(answer).toMatch(/store/);
    }
  });
});
