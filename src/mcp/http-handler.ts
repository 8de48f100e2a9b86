import {
  bearerAuthChallengeResponse,
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedOrigins,
  OAuthError,
  OAuthErrorCode,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { JWTVerifyGetKey } from 'jose';
import type { forRequest as forRequestMethod } from '../client.js';
import { fetchOptionsProblem } from '../core/fetch-options.js';
import {
  AgentChatError,
  type Caller,
  Client,
  type ClientOptions,
  ConfigurationError,
  type FetchOptions,
  type Logger,
} from '../index.js';
import { closest } from '../internal/closest.js';
import type { PrivateJwk } from '../oauth/client-assertion.js';
import { type AuthorizationGate, callerOf, createAuthorizationGate } from './authorization.js';
import { type SignInFront, signInFrontOf } from './front/index.js';
import {
  type McpToolScope,
  type ToolName,
  type ToolScopes,
  toolScopes,
  toolsForToken,
  toolsInScope,
} from './scope.js';
import type { McpScopeNames } from './scope-names.js';
import { checkedApps, isClientLike, serverWithTools } from './server.js';
import type { IntrospectionCredentials } from './token-verifier.js';
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
 * @typeParam ReadOnly - the type of `readOnly`, inferred from a call (see {@link McpToolScope})
 * @typeParam Tools - the type of `tools`, inferred from a call
 */
export interface McpHttpHandlerOptions<
  ReadOnly extends boolean = boolean,
  Tools extends readonly ToolName[] = readonly ToolName[],
> extends McpToolScope<ReadOnly, Tools>,
    McpScopeNames {
  /**
   * Offer the MCP Apps views (`ui://agentchat/chat.html` for `send_message`,
   * `ui://agentchat/project.html` for `create_project` and `get_project`) to hosts that render
   * them, as `createMcpServer`'s `apps` does. Hosts without the extension see the same results
   * either way.
   *
   * @default true
   */
  apps?: boolean;
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
  /**
   * The issuer URL of an OAuth 2.1 authorization server (Entra ID, Okta, Auth0, Keycloak...).
   * With it, `/mcp` is an OAuth protected resource, as the MCP authorization spec asks: RFC 9728
   * metadata at `/.well-known/oauth-protected-resource/mcp` (and the root form), a 401 pointing
   * at it without a valid token, the tokens its key set signs (or, with `introspection`, it
   * vouches for) let in, and each tool call allowed by the token's scopes: `agentchat:read` for
   * `get_project`, `agentchat:write` for `create_project` and `send_message` (names that
   * `readScope`, `writeScope` and `scopePrefix` change). Needs `client`: the
   * service is called with the server's own credential, never with the token a caller sent.
   *
   * @default none: no authorization (pass-through, or the key of `client` for every request)
   */
  authorizationServer?: string;
  /**
   * The endpoint's canonical URL as callers reach it, such as `https://mcp.example.com/mcp`
   * (behind a proxy, the public one): tokens must be issued for it (their `aud`). Required with
   * `authorizationServer`: taken from a request's `Host`, a caller could choose it.
   *
   * @default none: required with `authorizationServer`
   */
  resource?: string;
  /**
   * Other `aud` values a token may carry instead of `resource`, for an identity provider that
   * cannot put the endpoint's URL there: Entra ID's v2.0 access tokens always carry the API's
   * application (client) id, such as `'3f2a…'`. The token's issuer, signature, expiry and scopes
   * are checked as for any other.
   *
   * @default none: `aud` must be `resource`
   */
  audience?: string | readonly string[];
  /**
   * Check opaque access tokens by RFC 7662 introspection at the authorization server's
   * `introspection_endpoint`, as this client (each answer kept until the token expires). JWT
   * access tokens are still verified by signature.
   *
   * @default none: JWT access tokens only
   */
  introspection?: IntrospectionCredentials;
  /**
   * Options merged into every fetch the server makes to the authorization server (its metadata,
   * key set and introspection) or, with `upstreamIssuer`, to the upstream identity provider, for
   * what a runtime's `fetch` takes beyond the standard: undici's `dispatcher` for a proxy or a
   * private CA on Node, Deno's `client`, Bun's `proxy` and `tls`.
   * The service's calls take `client`'s own `fetchOptions`. See docs/networks.md.
   *
   * @default none
   * @example
   * ```ts
   * import { createMcpHttpHandler } from 'agentchat/mcp';
   * import { ProxyAgent } from 'undici';
   *
   * const fetchOptions = { dispatcher: new ProxyAgent('http://proxy.internal:3128') };
   * createMcpHttpHandler({
   *   client: new Client({ baseUrl: 'https://host/api', fetchOptions }),
   *   authorizationServer: 'https://login.example.com',
   *   resource: 'https://mcp.example.com/mcp',
   *   fetchOptions,
   * });
   * ```
   */
  fetchOptions?: FetchOptions;
  /**
   * The OpenID issuer of the company's identity provider (Entra ID, Okta, Google, Keycloak...)
   * for the sign-in front: this server becomes the authorization server hosts register with
   * (RFC 8414 metadata at its origin, RFC 7591 registration, Client ID Metadata Documents, PKCE
   * S256, refresh tokens rotated, revocation), shows its own consent page, signs each person in
   * at this issuer (OpenID Connect with PKCE and a nonce, as the one app registered there, whose
   * redirect URI is `<origin of resource>/oauth/callback`), and issues its own RFC 9068 access
   * tokens for `resource`. Needs `client`, `resource` and `upstreamClientId`; not with
   * `authorizationServer`. Node only; needs the optional peers `oidc-provider` and
   * `openid-client`.
   *
   * @default none: no sign-in front
   */
  upstreamIssuer?: string;
  /**
   * The client id of the app registered for this server at `upstreamIssuer`.
   *
   * @default none: required with `upstreamIssuer`
   */
  upstreamClientId?: string;
  /**
   * That app's secret (a confidential client); without, the front signs in as a public client
   * with PKCE alone.
   *
   * @default none
   */
  upstreamClientSecret?: string | undefined;
  /**
   * The scope asked of `upstreamIssuer`; it must hold `openid`.
   *
   * @default `'openid profile email'`
   */
  upstreamScope?: string;
  /**
   * The private key the front signs access tokens with, a private JWK or a PEM (PKCS#8, SEC1 EC
   * or PKCS#1 RSA, as `openssl` writes them): give every replica the same one. Without, a key is made at start, and tokens end with the process.
   *
   * @default none: a key made at start
   */
  signingKey?: string | PrivateJwk | undefined;
  /**
   * Where the sign-in front keeps registrations, codes, refresh tokens, sessions and consents:
   * `'memory'` (this process, every model bounded), or a Redis URL (`redis://`, `rediss://`)
   * that replicas share, with the same `signingKey`. Needs the optional peer `redis` then.
   *
   * @default `'memory'`
   */
  store?: string;
  /**
   * The proxies (addresses or CIDR ranges, such as `'10.0.0.0/8'`) in front of this server whose
   * `X-Forwarded-For` the sign-in front believes: its per-caller limits (registration) then count
   * the address such a proxy names. Without, each caller is the address of the socket its request
   * came on (told by `toNodeListener`); a header from anyone else is ignored.
   *
   * @default none: the socket's address
   */
  trustedProxies?: readonly string[];
  /**
   * Where, with `authorizationServer`, each tool call is logged at `info` with who made it (the
   * token's subject and client id, never the token), and an unreachable issuer at `warn`.
   *
   * @default none: nothing is logged
   */
  logger?: Logger;
}

/** The sign-in front of each handler that has one, for the bin's start-up check. */
const fronts = new WeakMap<McpHttpHandler, SignInFront>();

/**
 * Loads the sign-in front of `handler` (made with `upstreamIssuer`) now, for a start-up that must
 * stop on a fault rather than serve 503s: resolves at once for a handler without one. Not part of
 * the package's API: for agentchat-mcp's own start.
 *
 * @throws the reason the front cannot start, in full (the issuer and the cause), which no
 * anonymous answer repeats.
 *
 * @example
 * ```ts
 * await startedSignInFront(handler); // throws: http://idp.internal could not be discovered: ...
 * ```
 */
export async function startedSignInFront(handler: McpHttpHandler): Promise<void> {
  await fronts.get(handler)?.start();
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
 * With `authorizationServer`, `/mcp` is an OAuth 2.1 protected resource (the MCP authorization
 * spec): callers send access tokens of that issuer, verified here, and the tools call the service
 * with `client`'s own credential, its middleware told who called (`context.caller`).
 *
 * Needs the optional peer dependency `@modelcontextprotocol/server` (2.4 or later).
 *
 * @throws {@link agentchat!ConfigurationError} (an {@link agentchat!AgentChatError}) when both
 * `client` and `clientOptions` are given, an option is unknown (naming the one probably meant) or
 * invalid, the tool scope names an unknown tool, or `authorizationServer` comes without `client`
 * or `resource`. Written out in the call, an unknown option, `client` with `clientOptions` and a
 * tool that changes something in a `readOnly: true` scope do not compile either (see
 * {@link OneClientSource} and {@link agentchat/mcp!ScopedToolList}).
 * @typeParam ReadOnly - the type of `readOnly`, inferred from the call: there is no need to give
 * it
 * @typeParam Tools - the type of `tools`, inferred from the call
 * @typeParam Given - the options of the call, inferred from it
 * @example
 * ```ts
 * // A Cloudflare Worker: each caller brings its own service key.
 * import { createMcpHttpHandler } from 'agentchat/mcp';
 *
 * const handler = createMcpHttpHandler({ clientOptions: { baseUrl: 'https://host/api' } });
 * export default { fetch: (request: Request) => handler.fetch(request) };
 * ```
 * @example
 * ```ts
 * // An OAuth protected resource for Claude and ChatGPT connectors: the server's own key.
 * import { Client } from 'agentchat';
 * import { createMcpHttpHandler } from 'agentchat/mcp';
 *
 * const handler = createMcpHttpHandler({
 *   client: new Client({ baseUrl: 'https://host/api' }),
 *   authorizationServer: 'https://login.example.com',
 *   resource: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export function createMcpHttpHandler<
  ReadOnly extends boolean = boolean,
  const Tools extends readonly ToolName[] = readonly ToolName[],
  Given = McpHttpHandlerOptions,
>(options?: McpHttpHandlerOptions<ReadOnly, Tools> & OneClientSource<Given>): McpHttpHandler;
export function createMcpHttpHandler(given: McpHttpHandlerOptions = {}): McpHttpHandler {
  checkOptionNames(given);
  // The sign-in front is the authorization server: the rest is as for any other.
  const scopes = toolScopes(given);
  // Its tokens carry the scope names configured, as any issuer's must.
  const front = signInFrontOf(given, scopes.supported);
  const options = front ? { ...given, authorizationServer: front.issuer } : given;
  const { client, clientOptions, allowedOrigins = [], allowedHosts } = options;
  if (options.authorizationServer !== undefined) {
    if (clientOptions !== undefined || client === undefined) {
      throw new ConfigurationError(
        'createMcpHttpHandler with authorizationServer needs client, a Client with the ' +
          "server's own credential (an API key, or clientCredentials), and takes no " +
          'clientOptions: the tokens callers send are for this server, and are never passed on ' +
          'to the service.',
      );
    }
  } else {
    for (const name of AUTHORIZATION_ONLY) {
      if (options[name] !== undefined) {
        throw new ConfigurationError(
          `createMcpHttpHandler: ${name} is for an OAuth protected resource: add authorizationServer.`,
        );
      }
    }
  }
  if (client !== undefined && clientOptions !== undefined) {
    throw new ConfigurationError(
      'createMcpHttpHandler takes client (a key of its own) or clientOptions (pass-through), not both.',
    );
  }
  if (client !== undefined && !isClientLike(client)) {
    throw new ConfigurationError('createMcpHttpHandler: client must be a Client from agentchat.');
  }
  const tools = toolsInScope(options);
  const apps = checkedApps(options.apps, 'createMcpHttpHandler');
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
  const gate = authorizationGate(options, tools, scopes, front?.keySet);
  const mcp = createMcpHandler(({ authInfo }) => {
    if (gate === undefined) return serverWithTools(operationsFor(authInfo?.token), tools, apps);
    // Behind the gate: the server's own credential, the verified caller told to its middleware,
    // and only the tools the token's scopes allow (none without a verified caller).
    return authInfo === undefined
      ? serverWithTools(shared, [], apps)
      : serverWithTools(
          forCaller(shared, callerOf(authInfo)),
          toolsForToken(tools, authInfo, scopes),
          apps,
        );
  });

  const fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const metadata = gate?.metadataResponse(request, pathname);
    if (metadata) return metadata;
    if (front?.handles(pathname)) return front.fetch(request);
    if (pathname === '/health') {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } });
      }
      // Readiness: with a sign-in front, its upstream discovered and its store reachable. Told
      // in general words (the store, the identity provider): where they are, and their errors,
      // are the operator's, in the log; nobody who can reach /health learns the topology.
      const problem = await front?.problem();
      return problem === undefined
        ? Response.json({ status: 'ok' })
        : Response.json(
            { status: 'unavailable', problem },
            { status: 503, headers: { 'retry-after': '5', 'cache-control': 'no-store' } },
          );
    }
    if (pathname !== '/mcp') return Response.json({ error: 'Not found' }, { status: 404 });
    const refused =
      (hosts && hostHeaderValidationResponse(request, hosts)) ??
      originValidationResponse(request, origins);
    if (refused) return refused;
    if (gate !== undefined) {
      const authorized = await gate.authorize(request);
      if (authorized instanceof Response) return authorized;
      return mcp.fetch(authorized.request, { authInfo: authorized.authInfo });
    }
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
  const close = async () => {
    await mcp.close();
    await front?.close();
  };
  const handler: McpHttpHandler = { fetch, close };
  if (front !== undefined) fronts.set(handler, front);
  if (gate !== undefined) {
    // For the tests of the verified-token cache's bound only; not part of the API.
    Object.defineProperty(handler, Symbol.for('agentchat.mcp.verifiedTokens'), {
      get: () => gate.verifier.cacheSize,
    });
  }
  return handler;
}

/**
 * What {@link createMcpHttpHandler} adds to its options' type so that a call giving both
 * `client` and `clientOptions`, which it refuses, does not compile: `Given`, inferred from the
 * call, holds which options were given. A value that may be absent (an optional option of a
 * spread {@link McpHttpHandlerOptions}, a client that may be `undefined`) is left to the check when
 * the handler is made. Every option the call gives for sure must be one of
 * {@link McpHttpHandlerOptions}, as the handler refuses any other.
 *
 * @typeParam Given - the options of a call, inferred from it
 * @example
 * ```ts
 * import type { OneClientSource } from 'agentchat/mcp';
 *
 * const given: OneClientSource<{ readOnly: true }> = { readOnly: true };
 * ```
 */
export type OneClientSource<Given> = {
  [Name in keyof Given]: Name extends 'client'
    ? Given[Name]
    : Name extends keyof McpHttpHandlerOptions
      ? unknown
      : // Another option, given for sure: misspelt. One that may be absent (of a type of your
        // own that adds it) is left to the check when the handler is made.
        Partial<Pick<Given, Name>> extends Pick<Given, Name>
        ? unknown
        : never;
} & NoInfer<
  // Both given, neither optional (options built elsewhere may lack one) nor possibly undefined.
  Given extends {
    /** The client given. */
    client: infer GivenClient;
    /** The client options given too. */
    clientOptions: unknown;
  }
    ? undefined extends GivenClient
      ? unknown
      : {
          /** Not with `client`: a client's options are set where it is made. */
          clientOptions?: never;
        }
    : unknown
>;

/** The options that only mean something for an OAuth protected resource. */
const AUTHORIZATION_ONLY = [
  'resource',
  'audience',
  'introspection',
  'readScope',
  'writeScope',
  'scopePrefix',
  'fetchOptions',
] as const;

/** The options createMcpHttpHandler knows, to name the one meant for a misspelt one. */
const OPTION_NAMES: string[] = [
  'client',
  'clientOptions',
  'allowedOrigins',
  'allowedHosts',
  'authorizationServer',
  ...AUTHORIZATION_ONLY,
  'logger',
  'tools',
  'readOnly',
  'apps',
  'upstreamIssuer',
  'upstreamClientId',
  'upstreamClientSecret',
  'upstreamScope',
  'signingKey',
  'store',
  'trustedProxies',
];

function checkOptionNames(options: object): void {
  for (const name of Object.keys(options)) {
    if (OPTION_NAMES.includes(name)) continue;
    const meant = closest(name, OPTION_NAMES);
    throw new ConfigurationError(
      `createMcpHttpHandler: unknown option ${JSON.stringify(name)}` +
        `${meant ? `; did you mean ${meant}?` : ''} (the options are ${OPTION_NAMES.join(', ')}).`,
    );
  }
}

/** The gate of an OAuth protected resource, when `authorizationServer` asks for one. */
function authorizationGate(
  options: McpHttpHandlerOptions,
  tools: Parameters<typeof createAuthorizationGate>[0]['tools'],
  scopes: ToolScopes,
  keySet: JWTVerifyGetKey | undefined,
): AuthorizationGate | undefined {
  const { authorizationServer: issuer, resource, introspection, logger, fetchOptions } = options;
  const audience = options.audience === undefined ? undefined : [options.audience].flat();
  if (audience !== undefined && !audience.every(isNonEmptyString)) {
    throw new ConfigurationError(
      `createMcpHttpHandler: audience must be a non-empty string or a list of them (the \`aud\` values tokens may carry instead of resource), not ${JSON.stringify(options.audience)}.`,
    );
  }
  if (issuer === undefined) return undefined;
  httpUrl(issuer, 'authorizationServer', 'https://auth.example.com');
  if (resource === undefined) {
    throw new ConfigurationError(
      'createMcpHttpHandler with authorizationServer needs resource, the URL callers reach /mcp ' +
        'at (such as https://mcp.example.com/mcp): tokens must be issued for it.',
    );
  }
  const resourceUrl = httpUrl(resource, 'resource', 'https://mcp.example.com/mcp');
  if (resourceUrl.hash !== '' || resourceUrl.search !== '') {
    throw new ConfigurationError(
      `Invalid resource ${JSON.stringify(resource)}: a resource URL has no query or fragment (RFC 8707).`,
    );
  }
  const fetchProblem = fetchOptions === undefined ? undefined : fetchOptionsProblem(fetchOptions);
  if (fetchProblem) throw new ConfigurationError(`createMcpHttpHandler: ${fetchProblem}`);
  if (
    introspection !== undefined &&
    !(isNonEmptyString(introspection?.clientId) && isNonEmptyString(introspection?.clientSecret))
  ) {
    throw new ConfigurationError(
      'createMcpHttpHandler: introspection needs { clientId, clientSecret }, the credentials the ' +
        'server introspects tokens with.',
    );
  }
  try {
    return createAuthorizationGate({
      // As given: the metadata's `issuer` and each token's `iss` must be this very string.
      issuer,
      resource: resourceUrl,
      audience,
      introspection,
      logger,
      fetchOptions: fetchOptions && { ...fetchOptions },
      tools,
      scopes,
      keySet,
    });
  } catch (error) {
    // The SDK refuses an issuer that is not https outside loopback.
    throw new ConfigurationError(
      `Invalid authorizationServer ${JSON.stringify(issuer)}: ${(error as Error).message}.`,
      { cause: error },
    );
  }
}

function httpUrl(value: unknown, name: string, example: string): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {}
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ConfigurationError(
      `Invalid ${name} ${JSON.stringify(value)}: expected an absolute https URL, such as ${example}.`,
    );
  }
  return url;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * The operations of `client` with its own credential, for `caller`, whom its middleware is told
 * of (see {@link withApiKey} for the registered symbol).
 */
function forCaller(client: Client, caller: Caller): Operations {
  const method: typeof forRequestMethod = Symbol.for('agentchat.forRequest') as never;
  return client[method](undefined, caller);
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
    throw new ConfigurationError(
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
