/**
 * The HTTP face of `agentchat-mcp`: MCP Streamable HTTP at `/mcp` and `GET /health` on a
 * node:http server, through the web-standard handler that agentchat/mcp exports and
 * `toNodeHandler` of `@modelcontextprotocol/node`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { Client, ConfigurationError, isAgentChatError, type Logger } from '../index.js';
import { closeUnfinishedLingeringly } from '../internal/lingering-close.js';
import type { BinArguments, BinUpstream } from './arguments.js';
import {
  baseUrlFromEnv,
  clientOptionsFromEnv,
  type Environment,
  hasOwnCredentials,
  introspectionFromEnv,
  MCP_APP_INFO,
} from './config.js';
import {
  createMcpHttpHandler,
  type McpHttpHandlerOptions,
  startedSignInFront,
} from './http-handler.js';
import { malformedRequestGuard } from './malformed-request.js';
import { nodeListener } from './node-listener.js';

/** How long calls in flight may take to finish after SIGTERM or SIGINT before they are cut off. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Serves MCP over HTTP as `args` say, with the credentials `env` gives: a key of the server's own,
 * or none, and then each request's. Resolves once the server listens, having printed its URL on
 * standard error; SIGTERM and SIGINT stop it.
 *
 * @throws {@link ConfigurationError} for a bad setting, a non-loopback host with a key of the
 * server's own and no `--allow-remote`, or `--authorization-server` (or `--upstream-issuer`)
 * without a credential of the server's own.
 */
export async function serveOnHttp(
  args: BinArguments,
  env: Environment,
  logger: Logger,
): Promise<void> {
  const loopback = isLoopback(args.host);
  // Warnings while starting are held: a failure to start is told once, by the error it stops
  // with; after a start, they are told (a store down from the first moment, for one).
  const held = holdWarnings(levelled(logger, env.AGENTCHAT_LOG));
  const heldWhileStarting = held.logger;
  const shared: McpHttpHandlerOptions = {
    ...args.scope,
    apps: args.apps,
    allowedOrigins: args.allowedOrigins,
    // A rebound DNS name reaches a loopback server under a Host of its own: refuse it.
    ...(loopback && { allowedHosts: localhostAllowedHostnames() }),
  };
  let options: McpHttpHandlerOptions;
  const { authorization } = args;
  if (authorization !== undefined) {
    // The flag given: the sign-in front's, or another authorization server's.
    const flag = authorization.upstream ? '--upstream-issuer' : '--authorization-server';
    if (!hasOwnCredentials(env)) {
      throw new ConfigurationError(
        `${flag} needs a credential of the server's own to call the service ` +
          "with (callers' tokens are never passed on): set AGENTCHAT_API_KEY, or the OAuth 2.0 " +
          'client credentials settings (AGENTCHAT_CLIENT_ID with AGENTCHAT_CLIENT_SECRET, and ' +
          'AGENTCHAT_TOKEN_URL or AGENTCHAT_ISSUER).',
      );
    }
    if (authorization.resource === undefined && !loopback) {
      throw new ConfigurationError(
        `--host ${args.host} with ${flag} needs --resource, the URL callers reach /mcp at ` +
          (authorization.upstream
            ? '(such as https://mcp.example.com/mcp): its origin is the issuer hosts register with.'
            : '(such as https://mcp.example.com/mcp): tokens must be issued for it.'),
      );
    }
    // Tokens are verified, so a non-loopback host needs no --allow-remote here. A loopback one
    // behind a proxy on this machine is reached under the public name of --resource too.
    const publicHost = authorization.resource && URL.parse(authorization.resource)?.hostname;
    options = {
      ...shared,
      ...(shared.allowedHosts &&
        publicHost && { allowedHosts: [...shared.allowedHosts, publicHost] }),
      client: new Client({ ...clientOptionsFromEnv(env), appInfo: MCP_APP_INFO, logger }),
      ...(authorization.upstream
        ? upstreamOptions(authorization.issuer, authorization.upstream, env)
        : { authorizationServer: authorization.issuer }),
      ...(authorization.audience.length > 0 && { audience: authorization.audience }),
      ...(authorization.introspection && { introspection: introspectionFromEnv(env) }),
      ...authorization.scopeNames,
      logger: heldWhileStarting,
    };
  } else if (hasOwnCredentials(env)) {
    if (!loopback && !args.allowRemote) {
      throw new ConfigurationError(
        `--host ${args.host} would let anyone who reaches it call the service with this server's ` +
          'own key: unset AGENTCHAT_API_KEY (and the OAuth settings) so that each caller sends ' +
          'its own, or add --allow-remote.',
      );
    }
    options = {
      ...shared,
      client: new Client({ ...clientOptionsFromEnv(env), appInfo: MCP_APP_INFO, logger }),
    };
  } else {
    options = {
      ...shared,
      clientOptions: { baseUrl: baseUrlFromEnv(env), appInfo: MCP_APP_INFO, logger },
    };
  }
  // With --authorization-server and no --resource, the resource is the URL served, known once
  // listening (--port 0); every setting is checked before, by a handler for the port asked.
  const handlerFor = (port: number) =>
    createMcpHttpHandler({
      ...options,
      ...(authorization && {
        resource: authorization.resource ?? `http://${urlHost(args.host)}:${port}/mcp`,
      }),
    });
  let handler = handlerFor(args.port);
  let serve = nodeHandler(handler);
  // In front of the conversion, whose error path (a 500 and a log line) is for our own faults.
  const refuseMalformed = malformedRequestGuard((line) => process.stderr.write(line));
  let stopping = false;
  const timeout = args.requestTimeoutMs;
  const server = createServer(
    {
      // Node's own bounds on a slow client, as the mock has them: the headers, then the whole
      // request, within --request-timeout, or 408 and the connection closed. Without them one
      // client holds a connection (and, with a body, a verified token's request) for 300 s, and
      // a few hundred such hold the server. Checked often enough that a short timeout is kept to
      // within a quarter of it. Answers are not bounded: a tool call may take as long as it takes.
      headersTimeout: timeout,
      requestTimeout: timeout,
      connectionsCheckingInterval: Math.min(1_000, Math.max(10, timeout / 4)),
      // Idle connections kept a minute, not Node's 5 s: a client reusing one just as a 5 s
      // timeout closes it (more likely on a busy host) fails with ECONNRESET.
      keepAliveTimeout: 60_000,
    },
    (request, response) => {
      lingerAfter(request);
      // Once stopping, a connection is closed as soon as its last answer is out, not kept alive.
      response.once('finish', () => {
        if (stopping) setImmediate(() => server.closeIdleConnections());
      });
      if (refuseMalformed(request, response)) return;
      // node:http types `method` as optional; a server's requests always have one.
      return serve(request as never, response);
    },
  );
  // A 413 for a body still arriving reaches the client rather than a reset.
  const lingerAfter = closeUnfinishedLingeringly(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, args.host, resolve);
  });
  server.on('error', (error) => process.stderr.write(`agentchat-mcp: ${error.message}\n`));
  const { port } = server.address() as AddressInfo;
  const host = urlHost(args.host);
  if (authorization && authorization.resource === undefined && port !== args.port) {
    // Swapped before any request can be read: no I/O event runs until this function awaits.
    const checked = handler;
    handler = handlerFor(port);
    serve = nodeHandler(handler);
    void checked.close();
  }
  if (authorization?.upstream) {
    // The front loads now (its key, its peers, its upstream), so that a fault stops the start,
    // not a sign-in, naming the issuer and the cause (which no anonymous answer does).
    try {
      await startedSignInFront(handler);
    } catch (error) {
      server.close();
      throw isAgentChatError(error) ? error : new ConfigurationError((error as Error).message);
    }
  }
  held.release();
  const credentials = authorization
    ? `for access tokens of ${authorization.upstream ? `its own sign-in front (people sign in at ${authorization.issuer})` : authorization.issuer}, calling the service with this server's own credential`
    : options.client
      ? "with this server's own key"
      : "with each caller's key (Authorization: Bearer <service key>)";
  const stop = () => {
    stopping = true;
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    // No new connections; calls in flight may finish within the grace period, then are cut off.
    server.close();
    server.closeIdleConnections();
    const cutOff = setTimeout(() => {
      void handler.close();
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    cutOff.unref();
    server.once('close', () => {
      clearTimeout(cutOff);
      void handler.close();
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Last: a supervisor may stop the server as soon as it reads this line, and a signal must then
  // find the handlers above, not Node's default, which would exit at once.
  process.stderr.write(`agentchat-mcp: serving MCP at http://${host}:${port}/mcp ${credentials}\n`);
}

/** The handler as a node:http listener; its own faults are one line on standard error. */
function nodeHandler(handler: ReturnType<typeof createMcpHttpHandler>) {
  return nodeListener(handler, (error) =>
    process.stderr.write(`agentchat-mcp: ${error.message}\n`),
  );
}

/** The sign-in front's options: the flags, and the secrets from the environment. */
function upstreamOptions(
  issuer: string,
  upstream: BinUpstream,
  env: Environment,
): Partial<McpHttpHandlerOptions> {
  const secret = env.AGENTCHAT_UPSTREAM_CLIENT_SECRET?.trim();
  const signingKey = env.AGENTCHAT_SIGNING_KEY?.trim();
  return {
    upstreamIssuer: issuer,
    upstreamClientId: upstream.clientId,
    ...(secret && { upstreamClientSecret: secret }),
    ...(upstream.scope !== undefined && { upstreamScope: upstream.scope }),
    ...(upstream.store !== undefined && { store: upstream.store }),
    ...(upstream.trustedProxies.length > 0 && { trustedProxies: upstream.trustedProxies }),
    ...(signingKey && { signingKey }),
  };
}

/** `logger` with its warnings held until `release`, then told, and told at once thereafter. */
function holdWarnings(logger: Logger): { logger: Logger; release(): void } {
  let held: unknown[][] | undefined = [];
  return {
    logger: {
      ...logger,
      warn: (...line) => {
        if (held === undefined) logger.warn(...(line as [string]));
        else if (held.length < 10) held.push(line);
      },
    },
    release: () => {
      const lines = held ?? [];
      held = undefined;
      for (const line of lines) logger.warn(...(line as [string]));
    },
  };
}

/** A host as a URL holds it: an IPv6 address in brackets. */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * `logger` with the lines below `AGENTCHAT_LOG` (default `warn`) dropped, for the authorization
 * gate's lines, as the client's are: its `info` line per tool call shows with `info` or `debug`.
 */
function levelled(logger: Logger, level: string | undefined): Logger {
  const shows = (wanted: string) =>
    ['info', 'debug'].includes(level ?? '') && (wanted === 'info' || level === 'debug');
  return {
    error: logger.error,
    warn: logger.warn,
    info: shows('info') ? logger.info : () => {},
    debug: shows('debug') ? logger.debug : () => {},
  };
}

/** True for an address only this machine reaches. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}
