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
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { rememberSocketAddress } from './front/socket-address.js';
import type { McpHttpHandler } from './http-handler.js';

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
  const socketAddress = new AsyncLocalStorage<string | undefined>();
  const serve = toNodeHandler(
    {
      fetch: async (request: Request) => {
        rememberSocketAddress(request, socketAddress.getStore());
        const response = await handler.fetch(request);
        if (response.headers.getSetCookie().length > 1) withCookiesAsOneEntry(response.headers);
        return response;
      },
    },
    { onerror },
  );
  // node:http types `method` as optional; a server's requests always have one.
  return (req, res) => socketAddress.run(req.socket.remoteAddress, () => serve(req as never, res));
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
