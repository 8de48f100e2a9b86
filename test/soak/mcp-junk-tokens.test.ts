/**
 * Junk tokens by the tens of thousands against `agentchat-mcp --http --authorization-server`, as a
 * real process on 127.0.0.1 against a real authorization server (oidc-provider): 40,000 of each
 * kind, read at 5,000 and every 5,000 after. Its resident memory is read from the kernel as an
 * operator sees it, with no collection forced while a flood lasts (a forced one would hide what
 * the collector, left to itself, lets pile up), and its heap once each flood is over.
 * test/reliability/mcp-junk-tokens.test.ts proves the same in `npm test`, in rounds of 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import {
  flood,
  JUNK_TOKEN_KINDS,
  junkToken,
  type McpServerProcess,
  MiB,
  startMcpServerProcess,
} from '../helpers/junk-tokens.js';
import { memoryOf } from '../helpers/server-process.js';

const SERVER_KEY = 'sk_mcp_junk_soak_91c4';
const ROUND = 5_000;
const TOTAL = 40_000;

let issuer: AuthorizationServer;
let service: MockServer;
let mcp: McpServerProcess;

beforeAll(async () => {
  issuer = await startAuthorizationServer();
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
  mcp = await startMcpServerProcess(['--authorization-server', issuer.issuer], {
    AGENTCHAT_BASE_URL: service.baseUrl,
    AGENTCHAT_API_KEY: SERVER_KEY,
    // As test/reliability/mcp-authorization-limits.test.ts runs it: malloc's arenas, one per
    // thread by default, grow resident memory by tens of MiB on a busy machine for nothing kept.
    MALLOC_ARENA_MAX: '2',
  });
  issuer.addMcpResource(mcp.url);
  // Resident memory climbs to its working size over the first 20,000 or so requests (V8's spaces
  // and the allocator's arenas growing in steps), whatever they are: that climb is not measured.
  // Unknown `kid`s climb the furthest (seen 238 to 309 MiB over 30,000, level after), so the warm-up
  // sends those, and then every other kind.
  await flood(mcp.url, 30_000, () => junkToken('unknown kid', { issuer, resource: mcp.url }));
  let sent = 0;
  await flood(mcp.url, 5_500, () =>
    junkToken(JUNK_TOKEN_KINDS[sent++ % JUNK_TOKEN_KINDS.length] ?? 'unknown kid', {
      issuer,
      resource: mcp.url,
    }),
  );
}, 600_000);
afterAll(async () => {
  await mcp?.stop();
  await service?.close();
  await issuer?.close();
});

const keySetFetches = () => issuer.paths.filter((path) => path === '/jwks').length;

describe('agentchat-mcp --http --authorization-server soaked in junk tokens', () => {
  it.each(JUNK_TOKEN_KINDS)('answers 40,000 %s tokens 401, its memory level', async (kind) => {
    const pid = mcp.child.pid as number;
    const token = () => junkToken(kind, { issuer, resource: mcp.url });
    const fetchesBefore = keySetFetches();
    const started = performance.now();
    const heapBefore = await mcp.heap();
    const resident: number[] = [];
    for (let sent = 0; sent < TOTAL; sent += ROUND) {
      const result = await flood(mcp.url, ROUND, token);
      expect(result.statuses).toEqual({ 401: ROUND });
      expect(result.challenges).toBe(ROUND);
      resident.push((await memoryOf(pid)).rss);
    }
    const heapAfter = await mcp.heap();
    const minutes = (performance.now() - started) / 60_000;
    // From 10,000 on: the first 5,000 of a kind may still load code of its own. The growth is read
    // round by round, and the middle round's counts: resident memory still climbs in steps to its
    // working size (V8's spaces, malloc's arenas), which fall in one or two rounds, where anything
    // kept per token adds to every round.
    const growth = resident.slice(2).map((rss, round) => rss - (resident[round + 1] ?? rss));
    const perToken = middle(growth) / ROUND;
    console.info(
      `${kind}: resident ${resident.map((rss) => (rss / MiB).toFixed(0)).join(', ')} MiB after each 5,000 (${perToken.toFixed(0)} B a token); heap ${(heapBefore.settled / MiB).toFixed(1)} -> ${(heapAfter.settled / MiB).toFixed(1)} MiB settled`,
    );
    // Level once warm: a server that kept 7 to 11 KiB a token (its request's headers, until
    // undici finalized the request) grew by 35 to 55 MiB every 5,000, 268 MiB and more after
    // 40,000. Measured here beside other work: 0.2 to 0.9 KiB a token, resident memory moving by
    // up to 10 MiB from one reading to the next as V8 and malloc resize their spaces, and once a
    // climb of 71 MiB over three rounds (238, 284, 305, 309 MiB) and level after, the first kind
    // after the warm-up reaching a working size of its own.
    expect(perToken).toBeLessThan(1_024);
    // What it keeps for good, once the flood is over: a token or a record of one, kept, adds
    // 5.5 KB of the 40,000 each, 200 MiB in all.
    expect(heapAfter.settled - heapBefore.settled).toBeLessThan(4 * MiB);
    // The key set is fetched again for an unknown `kid` at most once per 30 s cooldown.
    expect(keySetFetches() - fetchesBefore).toBeLessThanOrEqual(1 + Math.ceil(minutes * 2));
  });
});

/** The middle value of `values` (the upper of the two middle ones for an even count). */
function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
