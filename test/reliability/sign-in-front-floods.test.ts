/**
 * The sign-in front under floods, as `agentchat-mcp --http --upstream-issuer` runs (a process of
 * its own, whose resident memory the kernel reports): registrations past the rate limit are
 * answered 429, and authorizations abandoned at the consent page cost what the bounded store
 * holds, not one record each.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_BURST, REGISTRATION_REFILL_MS } from '../../src/mcp/front/engine.js';
import { MAX_RECORDS_PER_MODEL } from '../../src/mcp/front/memory-store.js';
import { type FrontProcess, startFrontProcess } from '../helpers/front-process.js';
import type { McpHttpProcess } from '../helpers/mcp-http.js';
import { MiB, memoryOf } from '../helpers/server-process.js';
import { atLength } from '../helpers/soak.js';

/** The heap the front keeps after a full collection, in bytes. */
async function heapOf(process: McpHttpProcess): Promise<number> {
  const readings = () => [...process.stderr().matchAll(/heap-on-signal: (\d+)/g)];
  const before = readings().length;
  process.child.kill('SIGUSR2');
  while (readings().length === before)
    await once(process.child.stderr as NodeJS.ReadableStream, 'data');
  return Number(readings().at(-1)?.[1]);
}

const SERVER_KEY = 'sk_front_floods_c4d2';
/**
 * Authorizations a round once the front's store is full, and how many rounds are read: 5,000 a
 * round in the soak suite (test/helpers/soak.ts).
 */
const ROUND = atLength({ test: 1_000, soak: 5_000 });
const ROUNDS = 5;
/** All the flood sends: a first 500, the store filled, then the rounds. */
const AUTHORIZATIONS = 500 + MAX_RECORDS_PER_MODEL + ROUNDS * ROUND;
/**
 * The most a round may keep, per authorization: 2 MiB a 5,000, about 0.4 KiB each. A record kept
 * per authorization (an injection bridge once kept one: 60 MiB per 5,000) keeps far more.
 */
const MOST_KEPT_PER_AUTHORIZATION = (2 * MiB) / 5_000;
const REDIRECT_URI = 'http://127.0.0.1:1/callback';

let signInFront: FrontProcess;
let front: McpHttpProcess;
let origin: string;

beforeAll(async () => {
  const hook = fileURLToPath(new URL('../helpers/heap-on-signal.ts', import.meta.url));
  signInFront = await startFrontProcess({
    serverKey: SERVER_KEY,
    nodeArguments: ['--expose-gc', '--import', hook],
  });
  front = signInFront.bin;
  origin = signInFront.origin;
}, 60_000);
afterAll(async () => {
  await signInFront?.close();
});

function register(): Promise<Response> {
  return fetch(`${origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
}

// The memory flood takes about 10 s on a quiet machine (30 s at the soak's length) and ten times
// that beside other floods on a busy one (scripts/under-load.ts): the timeout catches a hang, not
// slowness.
describe('the sign-in front under floods', { timeout: 600_000 }, () => {
  // First: the flood below needs one registration, which this one's limit would refuse after.
  let clientId: string;
  beforeAll(async () => {
    clientId = ((await (await register()).json()) as { client_id: string }).client_id;
  });

  it(`keeps its memory bounded through ${AUTHORIZATIONS.toLocaleString('en')} abandoned authorizations, flat once its store is full`, async () => {
    const pid = front.child.pid as number;
    let sent = 0;
    const abandon = async (count: number) => {
      // Eight at a time, as many hosts would; each one stops at the consent page.
      const one = async () => {
        const verifier = randomBytes(32).toString('base64url');
        const url = new URL(`${origin}/authorize`);
        url.search = new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: REDIRECT_URI,
          scope: 'agentchat:read agentchat:write',
          state: String(sent++),
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        }).toString();
        const response = await fetch(url, { redirect: 'manual' });
        await response.arrayBuffer();
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toMatch(/^\/interaction\//);
      };
      const workers = Array.from({ length: 8 }, async (_, worker) => {
        for (let i = worker; i < count; i += 8) await one();
      });
      await Promise.all(workers);
    };
    // The store holds at most MAX_RECORDS_PER_MODEL records a model (an interaction each here),
    // so once it is full the next ones replace the oldest instead of adding. Measured per 1,000
    // (a full collection before each reading): +11 MiB, then +2.2 MiB a round while the store
    // fills, then flat (within 0.25 MiB) round after round, but for a step of 5 to 16 MiB up or
    // down in a round now and then. So the bound is read from the rounds once the store is full,
    // the middle one of them: what is kept per authorization shows in every round, a step in one
    // only, and a step down in one round hides nothing kept in the others.
    await abandon(500);
    const heaps = [await heapOf(front)];
    const rss = [(await memoryOf(pid)).rss];
    await abandon(MAX_RECORDS_PER_MODEL);
    heaps.push(await heapOf(front));
    for (let round = 0; round < ROUNDS; round++) {
      await abandon(ROUND);
      heaps.push(await heapOf(front));
    }
    rss.push((await memoryOf(pid)).rss);
    const growth = heaps.slice(2).map((heap, i) => heap - (heaps[i + 1] as number));
    console.info(
      `front heap ${((heaps[0] as number) / MiB).toFixed(1)} MiB after 500 abandoned authorizations, ${((heaps[1] as number) / MiB).toFixed(1)} MiB with its store full; then per ${ROUND.toLocaleString('en')}: ${growth.map((bytes) => `${bytes >= 0 ? '+' : ''}${(bytes / MiB).toFixed(2)} MiB`).join(', ')}; resident ${((rss[0] as number) / MiB).toFixed(0)} -> ${((rss[1] as number) / MiB).toFixed(0)} MiB`,
    );
    expect(sent).toBe(AUTHORIZATIONS);
    // Most rounds once the store was full added nothing the collector could not take back.
    const middle = [...growth].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
    expect(middle).toBeLessThan(ROUND * MOST_KEPT_PER_AUTHORIZATION);
    // And the working size is bounded: the store full, and nothing else grown far past it.
    expect((heaps.at(-1) as number) - (heaps[0] as number)).toBeLessThan(64 * MiB);
  });

  it('answers a registration flood 429 past its rate limit, with Retry-After', async () => {
    // All at once, as a flood comes. The bucket gives one registration more every
    // REGISTRATION_REFILL_MS by the clock, so the bound counts the time the flood took: on a busy
    // machine a flood that takes 7 s may see 22 accepted, and still no more than that.
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: 100 }, () => register()));
    const elapsed = performance.now() - started;
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    const statuses = responses.map((response) => response.status);
    const accepted = statuses.filter((status) => status === 201).length;
    expect(accepted).toBeLessThanOrEqual(
      REGISTRATION_BURST + Math.floor(elapsed / REGISTRATION_REFILL_MS),
    );
    const refused = responses.filter((response) => response.status === 429);
    expect(refused).toHaveLength(100 - accepted);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((response) => Number(response.headers.get('retry-after')) > 0)).toBe(true);
  });
});
