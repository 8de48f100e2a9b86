/**
 * Codes and refresh tokens replayed at once against the sign-in front: 10 and 100 redemptions of
 * one code, and of one refresh token, sent together over real sockets, to one front with the
 * memory store and to two replicas sharing a real Redis (Debian's redis-server) behind a
 * round-robin balancer. Exactly one succeeds each time, and the race revokes the grant's family
 * as a reuse does: what the one success issued stops working too. Codes come from real sign-ins
 * in Chromium.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { Browser, BrowserContext } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';
import { type FrontReplicas, startFrontReplicas } from '../helpers/sign-in-front.js';
import {
  launchChromium,
  registerPublicClient,
  signInAsPerson,
  startRedirectTarget,
} from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_replay_3c9e';

let redis: RedisServer;
let browser: Browser;
let redirect: { url: string; server: Server };
const fronts: Record<string, FrontReplicas> = {};

beforeAll(async () => {
  [redis, browser, redirect] = await Promise.all([
    startRedisServer(),
    launchChromium(),
    startRedirectTarget(),
  ]);
  fronts.memory = await startFrontReplicas(SERVER_KEY, 1);
  fronts.redis = await startFrontReplicas(SERVER_KEY, 2, { store: redis.url });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  redirect?.server.close();
  await Promise.all(Object.values(fronts).map((front) => front.close()));
  await redis?.kill();
});

interface Answer {
  readonly status: number;
  readonly body: Record<string, string>;
}

/** A person's sign-in at `origin` for `clientId`: the code and its PKCE verifier. */
async function signIn(
  origin: string,
  clientId: string,
  person: BrowserContext,
): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${origin}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect.url,
    scope: 'agentchat:read offline_access',
    resource: `${origin}/mcp`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const page = await person.newPage();
  try {
    const back = await signInAsPerson(page, url, redirect.url);
    return { code: back.searchParams.get('code') as string, verifier };
  } finally {
    await page.close();
  }
}

async function token(origin: string, form: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** `times` copies of `form` sent at once: every request is on the wire before any answer. */
function atOnce(origin: string, form: Record<string, string>, times: number): Promise<Answer[]> {
  return Promise.all(Array.from({ length: times }, () => token(origin, form)));
}

function onlyOneSucceeded(answers: readonly Answer[]): Answer {
  const succeeded = answers.filter((answer) => answer.status === 200);
  expect(succeeded).toHaveLength(1);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(new Set(refused.map((answer) => `${answer.status} ${answer.body.error}`))).toEqual(
    new Set(['400 invalid_grant']),
  );
  return succeeded[0] as Answer;
}

describe.each([
  ['the memory store', 'memory'],
  ['two replicas sharing Redis', 'redis'],
])('the sign-in front with %s', (_name, which) => {
  let front: FrontReplicas;
  let person: BrowserContext;
  let clientId: string;
  beforeAll(async () => {
    front = fronts[which] as FrontReplicas;
    person = await browser.newContext();
    const registered = await registerPublicClient(front.origin, redirect.url, 'Replaying Host');
    expect(registered.status).toBe(201);
    clientId = registered.clientId;
  });
  afterAll(async () => {
    await person?.close();
  });

  it.each([10, 100])(
    'redeems a code sent %i times at once exactly once, and revokes what it issued',
    { timeout: 120_000 },
    async (times) => {
      const { code, verifier } = await signIn(front.origin, clientId, person);
      const answers = await atOnce(
        front.origin,
        {
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          code_verifier: verifier,
          redirect_uri: redirect.url,
        },
        times,
      );
      const { body } = onlyOneSucceeded(answers);
      // The race is a reuse: the family of the one success is revoked on every replica.
      const refreshed = await token(front.origin, {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: body.refresh_token as string,
      });
      expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    },
  );

  it.each([10, 100])(
    'rotates a refresh token sent %i times at once exactly once, and revokes its family',
    { timeout: 120_000 },
    async (times) => {
      const { code, verifier } = await signIn(front.origin, clientId, person);
      const issued = await token(front.origin, {
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        code_verifier: verifier,
        redirect_uri: redirect.url,
      });
      expect(issued.status).toBe(200);
      const answers = await atOnce(
        front.origin,
        {
          grant_type: 'refresh_token',
          client_id: clientId,
          refresh_token: issued.body.refresh_token as string,
        },
        times,
      );
      const { body } = onlyOneSucceeded(answers);
      const next = await token(front.origin, {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: body.refresh_token as string,
      });
      expect(next).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    },
  );
});
