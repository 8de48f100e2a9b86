/**
 * The handler as a node:http listener, through `toNodeHandler` of `@modelcontextprotocol/node`,
 * with every `Set-Cookie` of an answer written. `toNodeHandler` 2.1 copies the answer's headers
 * into one object, entry by entry, so that of several `Set-Cookie` only the last survives; the
 * sign-in front's answers set two or more (oidc-provider's interaction and resume cookies, each
 * with its signature), and a browser missing one cannot finish signing in. The socket's address
 * goes with each request, as the sign-in front counts its limits per caller (front/caller.ts).
 *
 * One `toNodeHandler` serves every request, over a handler that knows no request but the one it
 * is given. `toNodeHandler` leaves a listener on each request's abort signal, which undici keeps
 * until it finalizes the web `Request`, often many thousands of requests later on a busy server:
 * whatever that listener reaches lives as long. A `toNodeHandler` made per request, over a handler
 * closing over `res`, kept each request's headers (its bearer token among them) that long, about
 * 7 KiB a request, and a flood of junk tokens grew the server by hundreds of MiB. The socket's
 * address reaches the handler through an AsyncLocalStorage (a string, held for the request's
 * own asynchronous work only), never through a closure over the request.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rememberSocketAddress } from './front/socket-address.js';
import type { McpHttpHandler } from './http-handler.js';
import type * as NodeAdapter from './node-adapter.js';

/**
 * Options of {@link toNodeListener}.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createMcpHttpHandler, toNodeListener } from 'agentchat/mcp';
 *
 * const handler = createMcpHttpHandler({ clientOptions: { baseUrl: 'https://host/api' } });
 * const listener = toNodeListener(handler, {
 *   onError: (error) => console.error(`mcp: ${error.message}`),
 * });
 * createServer(listener).listen(8787, '127.0.0.1');
 * ```
 */
export interface NodeListenerOptions {
  /**
   * Told of a fault of the listener's own (the handler threw), after a 500 is answered; its
   * message, never a request's credentials.
   *
   * @default one line on standard error
   */
  onError?: (error: Error) => void;
}

/**
 * `handler` as a Node.js request listener, `(request, response) => void`, for `node:http` and
 * `node:https` servers, Express (`app.use(...)`) and Fastify (a route's raw request and reply):
 * every `Set-Cookie` of an answer is written, and the socket's address goes with each request, as
 * the sign-in front counts its limits per caller. Mounted at the root, it serves every path the
 * handler answers: `/mcp`, `/health`, and with a sign-in front its metadata, `/register`,
 * `/authorize`, `/token` and the person's pages. Put no body parser before it.
 *
 * @throws nothing: a fault while answering (`@modelcontextprotocol/node` not installed, the
 * handler throwing) is a 500, told to `onError`.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createMcpHttpHandler, toNodeListener } from 'agentchat/mcp';
 *
 * const handler = createMcpHttpHandler({ clientOptions: { baseUrl: 'https://host/api' } });
 * createServer(toNodeListener(handler)).listen(8787, '127.0.0.1');
 * ```
 */
export function toNodeListener(
  handler: McpHttpHandler,
  options: NodeListenerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  const onError =
    options.onError ?? ((error: Error) => console.error(`agentchat/mcp: ${error.message}`));
  const listener = nodeListener(handler, onError);
  return (request, response) => {
    listener(request, response).catch((error: Error) => {
      // Such as @modelcontextprotocol/node not installed: an answer all the same.
      if (!response.headersSent) response.writeHead(500).end();
      onError(error);
    });
  };
}

/**
 * A node:http listener answering with `handler`; its own faults go to `onerror`.
 *
 * @example
 * ```ts
 * createServer(nodeListener(handler, (error) => console.error(error.message)));
 * ```
 */
export function nodeListener(
  handler: McpHttpHandler,
  onerror: (error: Error) => void,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // Taken from the running Node.js rather than imported, so that a browser or Worker bundle of
  // agentchat/mcp, which never calls this, names no Node.js module.
  const { AsyncLocalStorage: Storage } = process.getBuiltinModule('node:async_hooks');
  const socketAddress: AsyncLocalStorage<string | undefined> = new Storage();
  const app = {
    fetch: async (request: Request) => {
      rememberSocketAddress(request, socketAddress.getStore());
      const response = await handler.fetch(request);
      if (response.headers.getSetCookie().length > 1) withCookiesAsOneEntry(response.headers);
      return response;
    },
  };
  let serve: ReturnType<typeof NodeAdapter.toNodeHandler> | undefined;
  return async (req, res) => {
    serve ??= (await nodeAdapter()).toNodeHandler(app, { onerror });
    const handle = serve;
    // node:http types `method` as optional; a server's requests always have one.
    return socketAddress.run(req.socket.remoteAddress, () => handle(req as never, res));
  };
}

/**
 * Has iterating `headers` give every `Set-Cookie` as one entry whose value is their list, which
 * node:http writes as one header each, where a Headers object gives one entry per cookie.
 */
function withCookiesAsOneEntry(headers: Headers): void {
  const cookies = headers.getSetCookie();
  const entries = [...headers].filter(([name]) => name !== 'set-cookie');
  Object.defineProperty(headers, Symbol.iterator, {
    value: function* () {
      yield* entries;
      yield ['set-cookie', cookies];
    },
  });
}

let adapter: Promise<typeof NodeAdapter> | undefined;

/**
 * `@modelcontextprotocol/node`, an optional peer, imported on the first request rather than at
 * the top: agentchat/mcp loads without it (stdio, Workers), in its ESM and CommonJS builds alike,
 * and a browser or Worker bundle of agentchat/mcp gets a stub in its place (`#node-adapter`).
 */
function nodeAdapter(): Promise<typeof NodeAdapter> {
  adapter ??= import('./node-adapter.js');
  return adapter;
}
