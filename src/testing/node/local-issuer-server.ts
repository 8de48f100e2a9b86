/**
 * The local issuer of workload identity tokens over HTTP on 127.0.0.1, for what cannot see msw's
 * handlers: `startMockServer`, `agentchat-mock --trust-issuer` in another process, a program in
 * another language.
 */
import type { AddressInfo } from 'node:net';
import { getResponse } from 'msw';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { createLocalIssuer, type LocalIssuer } from '../identity/local-issuer.js';
import { assertKnownOptions } from '../options.js';
import { closeServer, listen, originOf } from './listening.js';

/**
 * Options of {@link startLocalIssuer}: where to listen.
 *
 * @example
 * ```ts
 * await startLocalIssuer({ port: 4020 });
 * ```
 */
export interface LocalIssuerServerOptions {
  /**
   * Port to listen on; 0 picks any free port.
   *
   * @default 0
   */
  port?: number;
  /**
   * Address to listen on.
   *
   * @default '127.0.0.1'
   */
  host?: string;
}

/**
 * A local issuer listening on a real port: its `issuer` is its origin, such as
 * `http://127.0.0.1:4020`, which `agentchat-mock --trust-issuer` takes.
 *
 * @example
 * ```ts
 * const issuer = await startLocalIssuer();
 * const server = await startMockServer({ trustedIssuers: [issuer.issuer] });
 * ```
 */
export interface LocalIssuerServer extends LocalIssuer {
  /**
   * Stops listening and drops every open connection. Calling it again returns the same promise.
   *
   * @throws the error of Node's `server.close()`, should closing fail.
   * @example
   * ```ts
   * const issuer = await startLocalIssuer();
   * afterAll(() => issuer.close());
   * ```
   */
  close(): Promise<void>;
}

/** In a variable so that bundlers do not follow it into a browser build (see startMockServer). */
const NODE_HTTP = 'node:http';

/**
 * Starts a local issuer of workload identity tokens ({@link createLocalIssuer}) as an HTTP server,
 * serving its discovery document and key set.
 *
 * @throws Error with a one-line message and the listen error's `code` when the port cannot be
 * bound; ConfigurationError for an unknown option or a port outside 0–65535.
 * @example
 * ```ts
 * import { startLocalIssuer, startMockServer } from 'agentchat/testing';
 *
 * const issuer = await startLocalIssuer();
 * const mock = await startMockServer({ trustedIssuers: [issuer.issuer] });
 * const token = await issuer.signIdentityToken({ subject: 'ci', audience: `${mock.baseUrl}/oauth/token` });
 * ```
 */
export async function startLocalIssuer(
  options: LocalIssuerServerOptions = {},
): Promise<LocalIssuerServer> {
  assertKnownOptions(options, ['port', 'host'], 'startLocalIssuer');
  const { port = 0, host = '127.0.0.1' } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigurationError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  const [{ createServer, STATUS_CODES }, { createBridge }] = await Promise.all([
    import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_HTTP) as Promise<
      typeof import('node:http')
    >,
    import('./fetch-bridge.js'),
  ]);
  const server = createServer({ keepAliveTimeout: 60_000 });
  await listen(server, port, host);
  const origin = originOf(server.address() as AddressInfo);
  const issuer = await createLocalIssuer({ issuer: origin });

  const notFound = (status: number, message = 'Not found') =>
    Response.json({ error: message }, { status });
  const serve = createBridge({
    origin,
    answer: async (request) => (await getResponse([...issuer.handlers], request)) ?? notFound(404),
    refuseMethod: () => notFound(405, 'Method not allowed'),
    refuse: (status, message) => notFound(status, message),
    reasons: STATUS_CODES,
  });
  server.on('request', (req, res) => {
    serve(req, res).catch(() => res.destroy());
  });

  let closing: Promise<void> | undefined;
  return {
    ...issuer,
    close: () => {
      closing ??= closeServer(server);
      return closing;
    },
  };
}
