/**
 * `agentchat-mcp --http --authorization-server` holds like a server: run as a real process on
 * 127.0.0.1 against a real authorization server (oidc-provider), it is met by a flood of bad
 * tokens, a body far over its limit, clients that stall mid-request and headers over Node's limit.
 * Memory is read from the server's process (/proc/<pid>/status), not from this one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { closedBy, openSocket, rawExchange, streamBody } from '../helpers/raw-http.js';
import {
  MiB,
  memoryOf,
  resetPeak,
  type ServerProcess,
  startServerProcess,
} from '../helpers/server-process.js';

const SERVER_KEY = 'sk_mcp_limits_own_key_7d1e';
/** Short, so that the stalled clients below are cut off within the test; the default is 30 s. */
const REQUEST_TIMEOUT_MS = 1_000;
/** An MCP request any valid token may make. */
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'agentchat-limits', version: '1.0.0' },
  },
});

let issuer: AuthorizationServer;
let service: MockServer;
let mcp: ServerProcess;
/** A valid access token for the server under test. */
let token: string;

beforeAll(async () => {
  issuer = await startAuthorizationServer();
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
  mcp = await startServerProcess(
    'src/mcp/bin.ts',
    [
      '--http',
      '--port',
      '0',
      '--authorization-server',
      issuer.issuer,
      '--request-timeout',
      String(REQUEST_TIMEOUT_MS),
    ],
    /serving MCP at (\S+)/,
    {
      AGENTCHAT_BASE_URL: service.baseUrl,
      AGENTCHAT_API_KEY: SERVER_KEY,
      // Sized as a small container would size it, so that what the flood below measures is what
      // the server keeps. Left to choose, on a busy 2-core machine V8 grew its heap to 121 MB
      // holding 29 MB, and memory outside it grew 60 MB more (malloc's arenas, as far as we can
      // tell; their number is capped here), in some runs: up to 110 MiB of RSS for nothing kept.
      // With the cap, a server that keeps the tokens runs out of heap and dies: the test fails.
      NODE_OPTIONS: '--max-old-space-size=96',
      MALLOC_ARENA_MAX: '2',
    },
  );
  // The resource is the URL served, as the bin printed it.
  issuer.addMcpResource(mcp.url);
  token = await issuer.issueToken(issuer.mcpClients.writer, mcp.url);
}, 60_000);
afterAll(async () => {
  await mcp?.stop();
  await service?.close();
  await issuer?.close();
});

const pid = () => mcp.child.pid as number;

/** What the server answered one request, and on which connection. */
interface Answer {
  readonly status: number;
  readonly body: string;
  readonly wwwAuthenticate: string | undefined;
  readonly socket: Socket;
}

/** POSTs `body` to /mcp with `Authorization: Bearer <bearer>`, through `agent`. */
function post(agent: Agent | undefined, bearer: string, body = INITIALIZE): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      mcp.url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${bearer}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: text,
            wwwAuthenticate: response.headers['www-authenticate'],
            socket: sent.socket as Socket,
          }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/**
 * A token that looks right and is not: a JWS of the issuer's key id and algorithm, claims for this
 * very resource, unexpired, and a signature of random bytes, so that each one costs the server a
 * signature check. Each is distinct (its `jti`) and about 5.5 KB (its `pad`).
 */
function badToken(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = part({ alg: 'ES256', typ: 'at+jwt', kid: issuer.signingKeyId });
  const claims = part({
    iss: issuer.issuer,
    aud: mcp.url,
    sub: 'mallory',
    client_id: 'mallory',
    scope: 'agentchat:read agentchat:write',
    exp: Math.floor(Date.now() / 1000) + 600,
    jti: randomUUID(),
    pad: randomBytes(3_000).toString('base64url'),
  });
  return `${header}.${claims}.${randomBytes(64).toString('base64url')}`;
}

/**
 * Sends `count` bad tokens, `concurrency` at a time over as many keep-alive connections, and
 * resolves with how many answers had each status and how many connections were used.
 */
async function flood(count: number, concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = new Map<number, number>();
  const sockets = new Set<Socket>();
  let challenges = 0;
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next++;
          const answer = await post(agent, badToken());
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.wwwAuthenticate?.includes('error="invalid_token"')) challenges++;
          sockets.add(answer.socket);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { statuses: Object.fromEntries(statuses), challenges, connections: sockets.size };
}

describe('agentchat-mcp --http --authorization-server under load', { timeout: 120_000 }, () => {
  it.each([
    ['with its Content-Length', false, 10],
    // Fewer: each lingers a second before it is closed (see src/internal/lingering-close.ts).
    ['chunked', true, 3],
  ])(
    'answers a 100 MB body %s and a valid token 413 and cuts it off, growing less than 64 MiB',
    async (name, chunked, times) => {
      const total = 100_000_000;
      const { host, pathname } = new URL(mcp.url);
      /** Streams the body as fast as the server reads it, ignoring its answer, as a flood would. */
      const send = async () => {
        const socket = await openSocket(mcp.url);
        const answer = closedBy(socket);
        socket.write(
          `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${token}\r\n` +
            `accept: application/json, text/event-stream\r\ncontent-type: application/json\r\n` +
            `${chunked ? 'transfer-encoding: chunked' : `content-length: ${total}`}\r\n\r\n`,
        );
        const sent = await streamBody(socket, total, chunked);
        return { status: (await answer).status, sent };
      };
      await resetPeak(pid());
      const before = await memoryOf(pid());

      // Several times: a server that closes at once, without lingering, has the kernel reset the
      // connection under the 413, and a client still sending missed it in 5 to 10 runs in a
      // hundred here (EPIPE on its next write, the answer unread).
      const answers = [];
      for (let i = 0; i < times; i++) answers.push(await send());

      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 413));
      const sent = Math.max(...answers.map((answer) => answer.sent));
      const grown = (await memoryOf(pid())).peak - before.rss;
      console.info(
        `100 MB body ${name}: at most ${(sent / MiB).toFixed(1)} MiB sent before the cut-off, peak +${(grown / MiB).toFixed(1)} MiB`,
      );
      // Cut off: the server refused after its 4 MiB limit and closed the connection, lingering
      // over 2 MiB more at most; the rest sat in the sockets' buffers. A server that read on to
      // the end sees 95 MiB.
      expect(sent).toBeLessThan(20 * MiB);
      // A server that read the whole body into memory, or buffered it to answer, grows by 95 MiB.
      expect(grown).toBeLessThan(64 * MiB);
    },
  );

  it('answers 20,000 distinct bad tokens 401, growing less than 64 MiB, and still serves a valid one', async () => {
    // Warmed up first, and garbage collected before each reading: what is measured is what the
    // flood costs, not code loaded on first use, the key set fetched, nor the heap and allocator
    // reaching their working size (after 500 tokens they still grew by tens of MiB).
    expect((await flood(2_000, 50)).statuses).toEqual({ 401: 2_000 });
    await mcp.collectGarbage();
    const before = await memoryOf(pid());
    await resetPeak(pid());

    const result = await flood(20_000, 50);

    expect(result.statuses).toEqual({ 401: 20_000 });
    expect(result.challenges).toBe(20_000);
    // Keep-alive: the connections were reused, not one opened per token.
    expect(result.connections).toBeLessThanOrEqual(50);
    await mcp.collectGarbage();
    const after = await memoryOf(pid());
    // The tokens sent come to about 105 MiB: a server that kept each one (a cache of refusals,
    // a log held in memory, a map keyed by token) grows past the bound, or out of its heap.
    const grown = { peak: after.peak - before.rss, kept: after.rss - before.rss };
    console.info(
      `20,000 bad tokens: peak +${(grown.peak / MiB).toFixed(1)} MiB, kept +${(grown.kept / MiB).toFixed(1)} MiB`,
    );
    expect(grown.peak).toBeLessThan(64 * MiB);
    expect(grown.kept).toBeLessThan(64 * MiB);

    const valid = await post(undefined, token);
    expect(valid.status).toBe(200);
    expect(valid.body).toContain('"serverInfo"');
    // 10 to 17 s on a quiet machine and ten times that beside other floods on a busy one
    // (scripts/under-load.ts): the timeout catches a hang, not slowness.
  }, 600_000);

  it('cuts off a connection that stalls in its headers, and one that stalls in its body, after --request-timeout', async () => {
    const { host, pathname } = new URL(mcp.url);
    /** Opens a connection, writes `text`, and resolves once the server closes it, timed. */
    const stall = async (text: string) => {
      const socket = await openSocket(mcp.url);
      const closed = closedBy(socket);
      const start = performance.now();
      socket.write(text);
      const answer = await closed;
      return { ...answer, elapsed: performance.now() - start };
    };
    const head = `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${token}\r\n`;

    const [headers, body] = await Promise.all([
      // Half its headers: never the blank line that ends them.
      stall(head),
      // Valid headers, a valid token, and half the body they announce.
      stall(
        `${head}accept: application/json, text/event-stream\r\ncontent-type: application/json\r\n` +
          `content-length: ${INITIALIZE.length * 2}\r\n\r\n${INITIALIZE}`,
      ),
    ]);

    for (const answer of [headers, body]) {
      expect(answer.status).toBe(408);
      // Not before the timeout, nor anywhere near the 30 s default (nor never: the test's own
      // timeout would then fail it).
      expect(answer.elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS * 0.9);
      expect(answer.elapsed).toBeLessThan(REQUEST_TIMEOUT_MS * 5);
    }
  });

  it('answers headers over Node’s 16 KiB limit 431, and goes on serving', async () => {
    const { host, pathname } = new URL(mcp.url);
    const answers = await Promise.all([
      // One header too long: a bearer token of 32 KiB.
      rawExchange(
        mcp.url,
        `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${'a'.repeat(32 * 1024)}`,
      ),
      // Many short ones, 40 KiB in all.
      rawExchange(
        mcp.url,
        `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\n` +
          Array.from({ length: 2_000 }, (_, i) => `x-${i}: ${'b'.repeat(12)}`).join('\r\n'),
      ),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([431, 431]);
    expect(mcp.child.exitCode).toBeNull();
    expect((await post(undefined, token)).status).toBe(200);
  });
});
