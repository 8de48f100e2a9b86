/**
 * The HTTP face of `agentchat-mcp`: MCP Streamable HTTP at `/mcp` and `GET /health` on a
 * node:http server, through the web-standard handler that agentchat/mcp exports and
 * `toNodeHandler` of `@modelcontextprotocol/node`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { AgentChatError, Client, type Logger } from '../index.js';
import type { BinArguments } from './arguments.js';
import {
  baseUrlFromEnv,
  clientOptionsFromEnv,
  type Environment,
  hasOwnCredentials,
} from './config.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from './http-handler.js';
import { malformedRequestGuard } from './malformed-request.js';

/** How long calls in flight may take to finish after SIGTERM or SIGINT before they are cut off. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Serves MCP over HTTP as `args` say, with the credentials `env` gives: a key of the server's own,
 * or none, and then each request's. Resolves once the server listens, having printed its URL on
 * standard error; SIGTERM and SIGINT stop it.
 *
 * @throws {@link AgentChatError} for a bad setting, or a non-loopback host with a key of the
 * server's own and no `--allow-remote`.
 */
export async function serveOnHttp(
  args: BinArguments,
  env: Environment,
  logger: Logger,
): Promise<void> {
  const loopback = isLoopback(args.host);
  const shared: McpHttpHandlerOptions = {
    ...args.scope,
    allowedOrigins: args.allowedOrigins,
    // A rebound DNS name reaches a loopback server under a Host of its own: refuse it.
    ...(loopback && { allowedHosts: localhostAllowedHostnames() }),
  };
  let options: McpHttpHandlerOptions;
  if (hasOwnCredentials(env)) {
    if (!loopback && !args.allowRemote) {
      throw new AgentChatError(
        `--host ${args.host} would let anyone who reaches it call the service with this server's ` +
          'own key: unset AGENTCHAT_API_KEY (and the OAuth settings) so that each caller sends ' +
          'its own, or add --allow-remote.',
      );
    }
    options = { ...shared, client: new Client({ ...clientOptionsFromEnv(env), logger }) };
  } else {
    options = { ...shared, clientOptions: { baseUrl: baseUrlFromEnv(env), logger } };
  }
  const handler = createMcpHttpHandler(options);
  const serve = toNodeHandler(handler, {
    onerror: (error) => process.stderr.write(`agentchat-mcp: ${error.message}\n`),
  });
  // In front of the conversion, whose error path (a 500 and a log line) is for our own faults.
  const refuseMalformed = malformedRequestGuard((line) => process.stderr.write(line));
  let stopping = false;
  const server = createServer((request, response) => {
    // Once stopping, a connection is closed as soon as its last answer is out, not kept alive.
    response.once('finish', () => {
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
    if (refuseMalformed(request, response)) return;
    // node:http types `method` as optional; a server's requests always have one.
    return serve(request as never, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, args.host, resolve);
  });
  server.on('error', (error) => process.stderr.write(`agentchat-mcp: ${error.message}\n`));
  const { port } = server.address() as AddressInfo;
  const host = args.host.includes(':') ? `[${args.host}]` : args.host;
  const credentials = options.client
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

/** True for an address only this machine reaches. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}
