/**
 * What authorization costs the MCP server per tool call: the CPU time of one `tools/call` of
 * `get_project` through `createMcpHttpHandler`'s `fetch` (web `Request` in, `Response` read to the
 * end), in each of its modes, against the mock service in a process of its own (so that this
 * process's CPU clock counts the MCP server and its client, not the service):
 *
 * - `pass-through`: the caller's `Authorization: Bearer <service key>` is the key the tool uses;
 * - `own key`: the handler's `client` has a key of its own, no authorization;
 * - `authorization`: an OAuth protected resource with the same `client`, the caller sending a JWT
 *   access token the handler has verified before (issuer metadata, key set and the verified token
 *   cached): the steady state of a host calling tools with its token;
 * - `authorization, new token`: the same, with a token not seen before on every call (keys cached,
 *   the signature checked each time): what a caller costs once per token.
 *
 * The issuer is a tiny node:http server in this process serving RFC 8414 metadata and a JWKS, its
 * tokens signed here with jose (ES256, as RFC 9068 JWT access tokens): it is asked once per run,
 * so what is timed is the MCP server's verification, not the issuer.
 *
 * Each round runs one batch of calls per mode, in an order rotated per round, on the process's CPU
 * clock (user + system, garbage collection included). The figures are medians over the rounds;
 * the differences between modes are taken within each round, then their median, which cancels
 * drift between rounds.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { Client } from '../dist/index.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../dist/mcp/index.js';
import { BENCH_API_KEY, startMockProcess } from './mock-process.js';
import { rotate, type Summary, summarize } from './stats.js';

export const MCP_AUTH_MODES = [
  'pass-through',
  'own key',
  'authorization',
  'authorization, new token',
] as const;
export type McpAuthMode = (typeof MCP_AUTH_MODES)[number];

/** Per mode: CPU time per call (µs); and per mode, its per-round difference to pass-through's. */
export interface McpAuthResult {
  readonly perCall: ReadonlyMap<McpAuthMode, Summary>;
  /** Median over rounds of (mode − pass-through) within the round, in µs. */
  readonly overPassThrough: ReadonlyMap<McpAuthMode, number>;
  /** Median over rounds of (authorization − own key) within the round, in µs. */
  readonly authorizationOverOwnKey: number;
  readonly rounds: number;
  readonly batch: number;
}

/** The URL callers reach the endpoint at: tokens are issued for it (`aud`). */
const RESOURCE = 'http://127.0.0.1:8787/mcp';
const SCOPE = 'agentchat:read';
const KEY_ID = 'bench-key-1';

/**
 * Measures `rounds` batches of `batch` calls per mode, after `warmup` uncounted rounds. The
 * handlers are checked first: each answers the call with the project, and the authorization one
 * refuses a call without a token.
 */
export async function measureMcpAuth({
  warmup,
  rounds,
  batch,
}: {
  warmup: number;
  rounds: number;
  batch: number;
}): Promise<McpAuthResult> {
  const service = await startMockProcess();
  const issuer = await startIssuer();
  const handlers: McpHttpHandler[] = [];
  try {
    const projectId = await service.reset();
    const clientOptions = { baseUrl: service.baseUrl };
    const ownClient = () => new Client({ ...clientOptions, apiKey: BENCH_API_KEY });
    const passThrough = createMcpHttpHandler({ clientOptions });
    const ownKey = createMcpHttpHandler({ client: ownClient() });
    const authorized = createMcpHttpHandler({
      client: ownClient(),
      authorizationServer: issuer.issuer,
      resource: RESOURCE,
    });
    handlers.push(passThrough, ownKey, authorized);

    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_project', arguments: { id: projectId } },
    });
    const steadyToken = await issuer.token();
    // Tokens for the new-token mode, signed before the clock runs: one per call it makes.
    let freshTokens: string[] = [];
    const calls: Record<McpAuthMode, (index: number) => Promise<Response>> = {
      'pass-through': () => passThrough.fetch(toolCall(body, BENCH_API_KEY)),
      'own key': () => ownKey.fetch(toolCall(body, undefined)),
      authorization: () => authorized.fetch(toolCall(body, steadyToken)),
      'authorization, new token': (index) =>
        authorized.fetch(toolCall(body, freshTokens[index] as string)),
    };

    // Every mode answers the project; the gate refuses a call without a token.
    freshTokens = [await issuer.token()];
    for (const mode of MCP_AUTH_MODES) await checkAnswer(mode, await calls[mode](0), projectId);
    const refused = await authorized.fetch(toolCall(body, undefined));
    if (refused.status !== 401) {
      throw new Error(`mcp-auth: a call without a token got ${refused.status}, not 401`);
    }
    await refused.text();

    const samples = new Map<McpAuthMode, number[]>(MCP_AUTH_MODES.map((mode) => [mode, []]));
    for (let round = 0; round < warmup + rounds; round++) {
      freshTokens = await Promise.all(Array.from({ length: batch }, () => issuer.token()));
      for (const mode of rotate(MCP_AUTH_MODES, round)) {
        const call = calls[mode];
        const started = cpuMicros();
        for (let i = 0; i < batch; i++) {
          const response = await call(i);
          // Read to the end, as a host would; a refusal or error would time something else.
          await response.text();
          if (response.status !== 200) {
            throw new Error(`mcp-auth: ${mode} answered ${response.status} during the run`);
          }
        }
        const elapsed = cpuMicros() - started;
        if (round >= warmup) samples.get(mode)?.push(elapsed / batch);
      }
    }

    const of = (mode: McpAuthMode) => samples.get(mode) ?? [];
    const pairedMedian = (mode: McpAuthMode, reference: McpAuthMode) => {
      const base = of(reference);
      return summarize(of(mode).map((value, round) => value - (base[round] ?? Number.NaN))).median;
    };
    return {
      perCall: new Map(MCP_AUTH_MODES.map((mode) => [mode, summarize(of(mode))])),
      overPassThrough: new Map(
        MCP_AUTH_MODES.map((mode) => [mode, pairedMedian(mode, 'pass-through')]),
      ),
      authorizationOverOwnKey: pairedMedian('authorization', 'own key'),
      rounds,
      batch,
    };
  } finally {
    for (const handler of handlers) await handler.close();
    await issuer.close();
    await service.stop();
  }
}

/** This process's CPU time (user + system, all threads), in microseconds. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** A `tools/call` POST to /mcp as a host sends it, with `token` as its bearer token if any. */
function toolCall(body: string, token: string | undefined): Request {
  return new Request(RESOURCE, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body,
  });
}

/** Throws unless `response` is a successful `get_project` result naming `projectId`. */
async function checkAnswer(mode: string, response: Response, projectId: string): Promise<void> {
  const text = await response.text();
  // A JSON answer, or an SSE stream whose data line carries it.
  const json = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5))
        .join('')
    : text;
  let result: { isError?: boolean; structuredContent?: { id?: unknown } } | undefined;
  try {
    result = (JSON.parse(json) as { result?: typeof result }).result;
  } catch {}
  if (response.status !== 200 || result?.isError || result?.structuredContent?.id !== projectId) {
    throw new Error(
      `mcp-auth: ${mode} did not answer the project (${response.status}): ${text.slice(0, 300)}`,
    );
  }
}

/** An issuer serving its RFC 8414 metadata and key set, signing RFC 9068 access tokens. */
interface Issuer {
  readonly issuer: string;
  /** A fresh access token for {@link RESOURCE} with `agentchat:read`, valid for an hour. */
  token(): Promise<string>;
  close(): Promise<void>;
}

async function startIssuer(): Promise<Issuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'ES256', use: 'sig' };
  let issuer = '';
  const server: Server = createServer((request, response) => {
    const document =
      request.url === '/.well-known/oauth-authorization-server'
        ? {
            issuer,
            jwks_uri: `${issuer}/jwks`,
            token_endpoint: `${issuer}/token`,
            grant_types_supported: ['client_credentials'],
          }
        : request.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(document ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let serial = 0;
  return {
    issuer,
    token: () =>
      new SignJWT({ scope: SCOPE, client_id: 'bench-host' })
        .setProtectedHeader({ alg: 'ES256', kid: KEY_ID, typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(RESOURCE)
        .setSubject('bench-user')
        .setJti(`bench-${++serial}`)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
