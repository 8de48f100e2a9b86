import {
  bearerAuthChallengeResponse,
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedOrigins,
  OAuthError,
  OAuthErrorCode,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { forRequest as forRequestMethod } from '../client.js';
import { AgentChatError, Client, type ClientOptions } from '../index.js';
import { type McpToolScope, toolsInScope } from './scope.js';
import { isClientLike, serverWithTools } from './server.js';
import type { Operations } from './tools.js';

/**
 * Options of {@link createMcpHttpHandler}.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler, type McpHttpHandlerOptions } from 'agentchat/mcp';
 *
 * const options: McpHttpHandlerOptions = {
 *   clientOptions: { baseUrl: 'https://host/api' },
 *   readOnly: true,
 * };
 * const handler = createMcpHttpHandler(options);
 * ```
 */
export interface McpHttpHandlerOptions extends McpToolScope {
  /**
   * A client with a key of its own, which every request uses; callers then send no key. Leave it
   * out for pass-through, where each request's `Authorization: Bearer <service key>` is the key.
   *
   * @default none: pass-through
   */
  client?: Client;
  /**
   * For pass-through, the client's other options (base URL, retries, timeouts, logger), shared
   * by every request. Not with `client`.
   *
   * @default `{}`: the base URL from `AGENTCHAT_BASE_URL`
   */
  clientOptions?: Omit<ClientOptions, 'apiKey'>;
  /**
   * Browser origins allowed besides the loopback ones (`localhost`, `127.0.0.1`, `[::1]`), as
   * origins (`https://app.example.com`) or host names. A request from a browser on any other
   * origin gets 403, so that a web page cannot reach the server through DNS rebinding. Compared
   * by host name, whatever the scheme and port. Requests without an `Origin` (agents, not
   * browsers) are not affected.
   *
   * @default `[]`
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names the `Host` header must name, such as `['localhost', '127.0.0.1', '[::1]']` for a
   * server bound to loopback, whose answers a rebound DNS name must not get. `agentchat-mcp`
   * sets it for a loopback `--host`.
   *
   * @default none: any `Host`
   */
  allowedHosts?: readonly string[];
}

/**
 * A web-standard HTTP face: `fetch` answers one request, `close` ends the calls in flight.
 *
 * @example
 * ```ts
 * import { createMcpHttpHandler } from 'agentchat/mcp';
 *
 * const handler = createMcpHttpHandler({ clientOptions: { baseUrl: 'https://host/api' } });
 * const response = await handler.fetch(new Request('http://localhost/health'));
 * ```
 */
export interface McpHttpHandler {
  /** Answers one request: MCP at `/mcp`, `GET /health`, 404 elsewhere. */
  fetch: (request: Request) => Promise<Response>;
  /** Aborts the MCP exchanges in flight and closes their servers. */
  close: () => Promise<void>;
}

/**
 * Creates the MCP server's HTTP face, MCP Streamable HTTP at `/mcp` and `GET /health`, as a
 * web-standard `fetch(request) => Response` handler for Cloudflare Workers, Deno, Bun, Hono, and
 * Node through `toNodeHandler` of `@modelcontextprotocol/node`. It is stateless: every request is
 * served by a server of its own (the 2026-07-28 revision, and 2025-era clients through the
 * stateless fallback of `createMcpHandler`), so replicas serve one client in any order.
 *
 * Credentials: with `client`, every request uses its key. Without, each request's
 * `Authorization: Bearer <service key>` is the key its tools call the service with, and a request
 * with none gets 401 with `WWW-Authenticate: Bearer`; each request's client shares the options
 * and the HTTP machinery of one client made here, so it costs no setup. A browser request from an
 * origin not allowed gets 403.
 *
 * Needs the optional peer dependency `@modelcontextprotocol/server` (2.4 or later).
 *
 * @throws {@link agentchat!AgentChatError} when both `client` and `clientOptions` are given, an
 * option is invalid, or the tool scope names an unknown tool.
 * @example
 * ```ts
 * // A Cloudflare Worker: each caller brings its own service key.
 * import { createMcpHttpHandler } from 'agentchat/mcp';
 *
 * const handler = createMcpHttpHandler({ clientOptions: { baseUrl: 'https://host/api' } });
 * export default { fetch: (request: Request) => handler.fetch(request) };
 * ```
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions = {}): McpHttpHandler {
  const { client, clientOptions, allowedOrigins = [], allowedHosts } = options;
  if (client !== undefined && clientOptions !== undefined) {
    throw new AgentChatError(
      'createMcpHttpHandler takes client (a key of its own) or clientOptions (pass-through), not both.',
    );
  }
  if (client !== undefined && !isClientLike(client)) {
    throw new AgentChatError('createMcpHttpHandler: client must be a Client from agentchat.');
  }
  const tools = toolsInScope(options);
  const origins = [...localhostAllowedOrigins(), ...allowedOrigins.map(originHostname)];
  const hosts = allowedHosts === undefined ? undefined : [...allowedHosts];
  // Pass-through: one client holds the shared options; each request gets its operations with the
  // caller's key. Its own key is a function that refuses, as no request may go out without one.
  const shared =
    client ??
    new Client({
      ...clientOptions,
      apiKey: () => {
        throw new AgentChatError('No service key: send Authorization: Bearer <service key>.');
      },
    });
  const operationsFor = (token: string | undefined): Operations =>
    client !== undefined || token === undefined ? shared : withApiKey(shared, token);
  const mcp = createMcpHandler(({ authInfo }) =>
    serverWithTools(operationsFor(authInfo?.token), tools),
  );

  const fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname === '/health') {
      return request.method === 'GET' || request.method === 'HEAD'
        ? Response.json({ status: 'ok' })
        : new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    if (pathname !== '/mcp') return Response.json({ error: 'Not found' }, { status: 404 });
    const refused =
      (hosts && hostHeaderValidationResponse(request, hosts)) ??
      originValidationResponse(request, origins);
    if (refused) return refused;
    if (client !== undefined) return mcp.fetch(request);
    const token = bearerToken(request.headers.get('authorization'));
    if (token === undefined) {
      return bearerAuthChallengeResponse(
        new OAuthError(
          OAuthErrorCode.InvalidToken,
          "This server calls the service with each caller's key: send Authorization: Bearer <service key>.",
        ),
      );
    }
    return mcp.fetch(request, { authInfo: { token, clientId: 'agentchat-mcp', scopes: [] } });
  };
  return { fetch, close: () => mcp.close() };
}

/** The token of `Authorization: Bearer <token>`, or `undefined` when there is none. */
function bearerToken(header: string | null): string | undefined {
  const match = header?.match(/^Bearer[ \t]+([^\s]+)[ \t]*$/i);
  return match?.[1];
}

/** The host name an allowed origin is compared by: `https://app.example.com:8443` gives `app.example.com`. */
function originHostname(origin: string): string {
  if (!origin.includes('://')) return origin.toLowerCase();
  try {
    return new URL(origin).hostname;
  } catch {
    throw new AgentChatError(
      `Invalid allowed origin ${JSON.stringify(origin)}: expected an origin such as https://app.example.com, or a host name.`,
    );
  }
}

/**
 * The operations of `client` with the caller's key, sharing its options and ky instance, through
 * the method `Client` keys by this registered symbol to keep it off the public surface.
 */
function withApiKey(client: Client, apiKey: string): Operations {
  const method: typeof forRequestMethod = Symbol.for('agentchat.forRequest') as never;
  return client[method](apiKey);
}
