/**
 * oidc-provider is a node:http application; agentchat/mcp's handler is a web-standard
 * `fetch(request) => Response`. The front's listener runs on a node:http server of its own on a
 * loopback port, and each request the handler routes to it is passed on there by `fetch`. Request
 * injection without a socket (light-my-request) was measured keeping about 9 KiB per request
 * (its mock sockets and requests stay reachable), which a front that must hold 10,000 abandoned
 * authorizations in bounded memory cannot afford.
 *
 * The request to the loopback port goes by node:http on an `Agent` of the bridge's own, never by
 * `fetch`: under `NODE_USE_ENV_PROXY=1` with `HTTP_PROXY` set, Node's `fetch` (and its global
 * agents, from Node 24) send even a request to 127.0.0.1 to the proxy, which would then see every
 * code, verifier and refresh token, or refuse, and the front with it.
 *
 * The front's public origin is set on each request (`X-Forwarded-Host`, `-Proto`) so that every
 * URL oidc-provider writes is the issuer's, behind a proxy or not; those a caller sent are
 * dropped, as a caller could otherwise choose the issuer's URLs; so is their `X-Forwarded-For`,
 * which names the caller as the handler found it (caller.ts). The loopback port answers only
 * requests carrying this process's secret, so that another local process cannot do so either.
 */
import { randomBytes } from 'node:crypto';
import {
  Agent,
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestListener,
  request as sendRequest,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { readRequestBody } from '@modelcontextprotocol/server';

/** The largest body of a request to the front (a registration, a token request), in bytes. */
export const MAX_FRONT_BODY_BYTES = 65_536;

/** Headers a caller may not set for the provider: the bridge alone says where it is reached. */
const DROPPED = [
  'host',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-for',
  'forwarded',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
];

/** The header carrying the secret the loopback port requires. */
const SECRET_HEADER = 'x-agentchat-front';

/** The bridge to a listener: `fetch` answers a request with it, `close` stops its server. */
export interface Bridge {
  /** Answers `request`, from `caller` (as the engine reads it in `ctx.ip`). */
  fetch(request: Request, caller: string): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts `listener` on a loopback port and bridges to it, as if each request had reached
 * `issuer`.
 *
 * @example
 * ```ts
 * const bridge = await startBridge(provider.callback(), new URL('https://mcp.example.com'));
 * const response = await bridge.fetch(request, '192.0.2.7');
 * ```
 */
export async function startBridge(listener: RequestListener, issuer: URL): Promise<Bridge> {
  const secret = randomBytes(32).toString('base64url');
  const server = createServer((req, res) => {
    if (req.headers[SECRET_HEADER] !== secret) {
      res.writeHead(403).end();
      return;
    }
    delete req.headers[SECRET_HEADER];
    listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  // Of its own: no proxy an environment sets on the global agents reaches it.
  const agent = new Agent({ keepAlive: true });

  return {
    async fetch(request, caller) {
      const url = new URL(request.url);
      const headers: OutgoingHttpHeaders = {};
      request.headers.forEach((value, name) => {
        if (!DROPPED.includes(name)) headers[name] = value;
      });
      headers['x-forwarded-host'] = issuer.host;
      headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
      headers['x-forwarded-for'] = caller;
      headers[SECRET_HEADER] = secret;
      let body: string | undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        const read = await readRequestBody(request, MAX_FRONT_BODY_BYTES);
        if (read.tooLarge) {
          return Response.json(
            { error: 'invalid_request', error_description: 'The request body is too large.' },
            { status: 413 },
          );
        }
        body = read.text;
      }
      const sent = {
        port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        body,
      };
      // A kept-alive connection the loopback server closed as idle just as this request went
      // out is reset before the request is read (Node's documented race): sent again, once, on a
      // new connection, as nothing of it was handled.
      const answer = await exchange(agent, sent).catch((error: unknown) => {
        if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
        return exchange(agent, sent);
      });
      // A fresh Response, its headers as the listener wrote them but for the connection's own.
      const out = new Headers();
      for (const [name, value] of Object.entries(answer.message.headers)) {
        if (value === undefined || CONNECTION_HEADERS.includes(name)) continue;
        for (const each of Array.isArray(value) ? value : [value]) out.append(name, each);
      }
      const status = answer.message.statusCode ?? 502;
      const empty = request.method === 'HEAD' || [204, 304].includes(status);
      return new Response(empty ? null : new Uint8Array(answer.body), { status, headers: out });
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Headers of the loopback connection, not of the answer. */
const CONNECTION_HEADERS = [
  'content-encoding',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
];

/** One request to the listener's loopback port: its answer's head and whole body. */
function exchange(
  agent: Agent,
  options: {
    port: number;
    method: string;
    path: string;
    headers: OutgoingHttpHeaders;
    body: string | undefined;
  },
): Promise<{ message: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = sendRequest(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
        agent,
      },
      (message) => {
        const chunks: Buffer[] = [];
        message.on('data', (chunk: Buffer) => chunks.push(chunk));
        message.once('end', () => resolve({ message, body: Buffer.concat(chunks) }));
        message.once('error', reject);
      },
    );
    outgoing.once('error', (error: NodeJS.ErrnoException) => {
      // Marked for the caller: a reset of a reused connection before any answer may be retried.
      const retriable = outgoing.reusedSocket && error.code === 'ECONNRESET';
      reject(Object.assign(error, { reusedSocket: retriable }));
    });
    outgoing.end(options.body);
  });
}
