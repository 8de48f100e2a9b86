/**
 * Floods of junk access tokens against `agentchat-mcp --http --authorization-server` run as a
 * process of its own (the bin, real sockets on 127.0.0.1), and the server's heap read from that
 * process, for the tests that prove a flood of any kind of bad token leaves its memory level.
 */
import { createHmac, KeyObject, randomBytes, randomUUID, sign } from 'node:crypto';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { exportSPKI } from 'jose';
import type { AuthorizationServer } from './authorization-server.js';
import { INITIALIZE } from './mcp-http.js';
import { type StartedProcess, startProcess, tsxLoader } from './run-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** Every kind of bad token a flood may bring, each refused for a reason of its own. */
export const JUNK_TOKEN_KINDS = [
  'unknown kid',
  'bad signature',
  'wrong issuer',
  'wrong audience',
  'expired',
  'not yet valid',
  'not a JWT',
  'bad base64',
  'huge header',
  'alg none',
  'HS256 with the public key',
] as const;
export type JunkTokenKind = (typeof JUNK_TOKEN_KINDS)[number];

/** What junk tokens are made for: the issuer whose keys sign the signed kinds, and the server. */
export interface JunkTokenTarget {
  readonly issuer: AuthorizationServer;
  /** The MCP endpoint, the tokens' `aud`. */
  readonly resource: string;
}

/** The issuer's key in the forms the signed kinds need. */
const keysOf = new WeakMap<
  AuthorizationServer,
  Promise<{ privateKey: KeyObject; publicPem: string }>
>();
function issuerKeys(issuer: AuthorizationServer) {
  let keys = keysOf.get(issuer);
  if (keys === undefined) {
    keys = (async () => ({
      privateKey: KeyObject.from(issuer.signingKeys.privateKey),
      publicPem: await exportSPKI(issuer.signingKeys.publicKey),
    }))();
    keysOf.set(issuer, keys);
  }
  return keys;
}

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A fresh token of `kind`, about 5.5 KB (a `pad` claim), distinct from every other (its `jti`):
 * a server that kept a token, or anything keyed by one, would show it in its memory.
 */
export async function junkToken(kind: JunkTokenKind, target: JunkTokenTarget): Promise<string> {
  const { issuer, resource } = target;
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: issuer.issuer,
    aud: resource,
    sub: 'mallory',
    client_id: 'mallory',
    scope: 'agentchat:read agentchat:write',
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
    pad: randomBytes(3_000).toString('base64url'),
  };
  const es256 = { alg: 'ES256', typ: 'at+jwt', kid: issuer.signingKeyId };
  const randomSignature = randomBytes(64).toString('base64url');
  /** Signed with the issuer's own key: refused for its claims alone. */
  const signed = async (payload: object) => {
    const input = `${part(es256)}.${part(payload)}`;
    const { privateKey } = await issuerKeys(issuer);
    const signature = sign('sha256', Buffer.from(input), {
      key: privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${input}.${signature.toString('base64url')}`;
  };
  switch (kind) {
    case 'unknown kid':
      return `${part({ alg: 'RS256', typ: 'at+jwt', kid: randomUUID() })}.${part(claims)}.${randomBytes(256).toString('base64url')}`;
    case 'bad signature':
      return `${part(es256)}.${part(claims)}.${randomSignature}`;
    case 'wrong issuer':
      return signed({ ...claims, iss: 'https://issuer.example' });
    case 'wrong audience':
      return signed({ ...claims, aud: 'https://elsewhere.example/mcp' });
    case 'expired':
      return signed({ ...claims, iat: now - 7_200, exp: now - 3_600 });
    case 'not yet valid':
      return signed({ ...claims, nbf: now + 3_600 });
    case 'not a JWT':
      return randomBytes(4_000).toString('base64url');
    case 'bad base64':
      // A length no base64 has (one past a multiple of four), of base64url's characters only.
      return `${randomBytes(3_000).toString('base64url')}a.${part(claims)}.${randomSignature}`;
    case 'huge header':
      return `${part({ ...es256, x5c: [randomBytes(3_000).toString('base64')] })}.${part({ ...claims, pad: '' })}.${randomSignature}`;
    case 'alg none':
      return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims)}.`;
    case 'HS256 with the public key': {
      // The old confusion: the issuer's public key, which anyone may read, as an HMAC secret.
      const input = `${part({ alg: 'HS256', typ: 'at+jwt', kid: issuer.signingKeyId })}.${part(claims)}`;
      const { publicPem } = await issuerKeys(issuer);
      return `${input}.${createHmac('sha256', publicPem).update(input).digest('base64url')}`;
    }
  }
}

/** A server process under test, with its heap readable. */
export interface McpServerProcess extends StartedProcess {
  /** The MCP endpoint it printed. */
  readonly url: string;
  /** Its heap after a full collection, and once settled (see test/helpers/heap-readings.ts). */
  heap(): Promise<{ readonly collected: number; readonly settled: number }>;
  /** Stops it and waits for it to be gone. */
  stop(): Promise<void>;
}

/**
 * Starts `agentchat-mcp --http --port 0 ...args` (the bin as Node runs it, with tsx's loader, and
 * the heap-readings hook) and resolves once it serves.
 */
export async function startMcpServerProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<McpServerProcess> {
  const hook = fileURLToPath(new URL('./heap-readings.ts', import.meta.url));
  const started = await startProcess(
    process.execPath,
    [
      '--expose-gc',
      ...tsxLoader,
      '--import',
      hook,
      'src/mcp/bin.ts',
      '--http',
      '--port',
      '0',
      ...args,
    ],
    { ready: /serving MCP at (\S+)/, cwd: repo, env: { PATH: process.env.PATH, ...env } },
  );
  const readings = () => [...started.stderr().matchAll(/heap-readings: (\d+) (\d+)/g)];
  return {
    ...started,
    url: started.ready,
    heap: async () => {
      const before = readings().length;
      started.child.kill('SIGUSR2');
      while (readings().length === before) await once(started.child.stderr, 'data');
      const [, collected, settled] = readings().at(-1) as RegExpExecArray;
      return { collected: Number(collected), settled: Number(settled) };
    },
    stop: async () => {
      if (started.child.exitCode !== null || started.child.signalCode !== null) return;
      started.child.kill('SIGTERM');
      await started.exited;
    },
  };
}

/** What the server answered one request, and on which connection. */
export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly wwwAuthenticate: string | undefined;
  readonly socket: Socket;
}

/** POSTs `body` to `url` with `Authorization: Bearer <bearer>`, through `agent`. */
export function postMcp(
  url: string,
  agent: Agent | undefined,
  bearer: string,
  body = INITIALIZE,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
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

/** What a flood was answered: how many answers had each status, the challenges, the connections. */
export interface FloodResult {
  readonly statuses: Record<number, number>;
  /** Answers whose `WWW-Authenticate` said `error="invalid_token"`. */
  readonly challenges: number;
  /** Connections the answers came on: keep-alive reuses them. */
  readonly connections: number;
}

/**
 * Sends `count` tokens that `token` makes to `url`, `concurrency` at a time over as many keep-alive
 * connections, as a flood comes.
 */
export async function flood(
  url: string,
  count: number,
  token: () => Promise<string>,
  concurrency = 50,
): Promise<FloodResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses: Record<number, number> = {};
  const sockets = new Set<Socket>();
  let challenges = 0;
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next++;
          const answer = await postMcp(url, agent, await token());
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.wwwAuthenticate?.includes('error="invalid_token"')) challenges++;
          sockets.add(answer.socket);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { statuses, challenges, connections: sockets.size };
}

/** The least-squares slope of `values` over their index: the growth per round. */
export function slope(values: readonly number[]): number {
  const n = values.length;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, x) => {
    covariance += (x - meanX) * (value - meanY);
    variance += (x - meanX) ** 2;
  });
  return covariance / variance;
}

/** One MiB, for memory figures. */
export const MiB = 1024 * 1024;
