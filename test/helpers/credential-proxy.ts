/**
 * A host's credential in front of an MCP endpoint, for clients that cannot send one: a reverse
 * proxy on 127.0.0.1 that adds `Authorization` to each request lacking one and passes everything
 * else through as it came (method, path, `Host`, `Origin`, body), streaming both ways, so an event
 * stream reaches the client as the server writes it. The official MCP conformance suite's server
 * command takes no header or token (it connects by `--url` alone), and agentchat-mcp answers 401
 * to a request without a credential in either mode.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from './keep-alive.js';

/** A running proxy. */
export interface CredentialProxy {
  /** The target's URL with the proxy's origin, such as `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** Closes the proxy and its connections. */
  close(): Promise<void>;
}

/**
 * Starts a proxy to `target` (an endpoint's URL) that sends `authorization` (a whole header
 * value, such as `Bearer sk_...`) with every request that has none.
 *
 * @example
 * ```ts
 * const proxy = await startCredentialProxy(server.url, `Bearer ${token}`);
 * ```
 */
export async function startCredentialProxy(
  target: string,
  authorization: string,
): Promise<CredentialProxy> {
  const upstream = new URL(target);
  const server: Server = keepIdleConnections(
    createServer((incoming, outgoing) => {
      const forwarded = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          // The headers as sent, names, order and repeats kept, and the credential if none.
          headers: [
            ...incoming.rawHeaders,
            ...(incoming.headers.authorization === undefined
              ? ['authorization', authorization]
              : []),
          ],
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.destroy();
      });
      // A client that goes away ends its request at the server too, as it would directly.
      outgoing.on('close', () => forwarded.destroy());
      incoming.pipe(forwarded);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`${upstream.pathname}${upstream.search}`, `http://127.0.0.1:${port}`).href,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
