/**
 * The handler as a node:http listener, through `toNodeHandler` of `@modelcontextprotocol/node`,
 * with every `Set-Cookie` of an answer written. `toNodeHandler` 2.1 copies the answer's headers
 * into one object, so that of several `Set-Cookie` only the last survives; the sign-in front's
 * answers set two or more (oidc-provider's interaction and resume cookies, each with its
 * signature), and a browser missing one cannot finish signing in. The socket's address goes
 * with each request, as the sign-in front counts its limits per caller (front/caller.ts).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
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
  return (req, res) => {
    const withCookies = {
      fetch: async (request: Request) => {
        rememberSocketAddress(request, req.socket.remoteAddress);
        const response = await handler.fetch(request);
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 1) {
          const writeHead = res.writeHead.bind(res) as (
            status: number,
            headers?: OutgoingHttpHeaders,
          ) => ServerResponse;
          res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) =>
            writeHead(status, { ...headers, 'set-cookie': cookies })) as never;
        }
        return response;
      },
    };
    // node:http types `method` as optional; a server's requests always have one.
    return toNodeHandler(withCookies, { onerror })(req as never, res);
  };
}
