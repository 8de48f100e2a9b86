/**
 * The gate of the MCP endpoint as an OAuth 2.1 protected resource (the MCP authorization spec):
 * RFC 9728 metadata naming the authorization server, a 401 challenge pointing at it, each token
 * verified (src/mcp/token-verifier.ts) and each tool call checked against the token's scopes.
 * The metadata, the challenges and the bearer check are the MCP SDK's own helpers.
 */
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type OAuthMetadata,
  readRequestBody,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import type { JWTVerifyGetKey } from 'jose';
import type { Caller, FetchOptions, Logger } from '../index.js';
import { missingScope, type ToolScopes } from './scope.js';
import {
  createTokenVerifier,
  type IntrospectionCredentials,
  OUTAGE_COOLDOWN_MS,
  type TokenVerifier,
} from './token-verifier.js';
import type { AgentChatTool } from './tools.js';

/**
 * The most messages one JSON-RPC batch may hold: each tool call in it is a call to the service,
 * so a batch must not multiply what one token's request costs. MCP clients no longer batch
 * (the 2025-06-18 revision dropped it), and those that did sent a few.
 */
const MAX_BATCH_MESSAGES = 32;

/** What the gate is made from, checked by the handler. */
export interface AuthorizationGateOptions {
  /** The authorization server's issuer identifier. */
  readonly issuer: string;
  /** The endpoint's canonical URL, which tokens must be issued for. */
  readonly resource: URL;
  /** Other `aud` values a token may carry instead of the resource. */
  readonly audience: readonly string[] | undefined;
  readonly introspection: IntrospectionCredentials | undefined;
  readonly logger: Logger | undefined;
  /** Merged into every fetch to the authorization server. */
  readonly fetchOptions: FetchOptions | undefined;
  /** The issuer's keys when they are at hand (the sign-in front's): see the verifier. */
  readonly keySet?: JWTVerifyGetKey | undefined;
  /** The tools the server offers, whose calls are checked against each token's scopes. */
  // biome-ignore lint/suspicious/noExplicitAny: tools of different shapes
  readonly tools: readonly AgentChatTool<any, any>[];
  /** The scope each tool needs, as configured. */
  readonly scopes: ToolScopes;
}

/** A request let through: who sent it, and the request to serve (its body read once, here). */
export interface Authorized {
  readonly authInfo: AuthInfo;
  readonly request: Request;
}

/** The gate: the metadata documents, and the check every MCP request passes. */
export interface AuthorizationGate {
  /** The metadata document when `pathname` is one of its URLs, else `undefined`. */
  metadataResponse(request: Request, pathname: string): Response | undefined;
  /** The request with its verified caller, or the response that refuses it (401, 403, 413, 503). */
  authorize(request: Request): Promise<Authorized | Response>;
  /** The verifier, for the tests of its cache. */
  readonly verifier: TokenVerifier;
}

/**
 * Makes the gate.
 *
 * @throws an `Error` of the SDK when the issuer is not https outside loopback (checked by
 * `buildOAuthProtectedResourceMetadata`); the handler turns it into a `ConfigurationError`.
 */
export function createAuthorizationGate(options: AuthorizationGateOptions): AuthorizationGate {
  const { issuer, resource, audience, introspection, logger, fetchOptions, tools, scopes, keySet } =
    options;
  // What a host is told to ask for when refused without a valid token (the MCP authorization
  // spec's scope selection): the scopes of the tools this server offers, no more.
  const challengeScopes = [...scopes.neededBy(tools)];
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const metadata = {
    // The SDK reads only the issuer of the authorization server's metadata here.
    ...buildOAuthProtectedResourceMetadata({
      oauthMetadata: { issuer } as OAuthMetadata,
      resourceServerUrl: resource,
      scopesSupported: [...scopes.supported],
      resourceName: 'Project and Agent Chat',
    }),
    bearer_methods_supported: ['header'],
  };
  // The path-suffixed URL (RFC 9728 section 3.1), which MCP clients ask first, that of the local
  // /mcp when a proxy serves it under another path, and the root form older clients ask.
  const metadataPaths = new Set([
    new URL(resourceMetadataUrl).pathname,
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-protected-resource',
  ]);
  const verifier = createTokenVerifier({
    issuer,
    resource: resource.href,
    audience,
    introspection,
    logger,
    fetchOptions,
    keySet,
  });

  const metadataResponse = (request: Request, pathname: string): Response | undefined => {
    if (!metadataPaths.has(pathname)) return undefined;
    // Read by browser-based hosts (the MCP Inspector) from another origin: public, so any may.
    const cors = { 'access-control-allow-origin': '*' };
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: { ...cors, 'access-control-allow-methods': 'GET, HEAD' },
      });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
    }
    return Response.json(metadata, { headers: cors });
  };

  const authorize = async (request: Request): Promise<Authorized | Response> => {
    const header = request.headers.get('authorization');
    if (header === null) {
      // No credentials at all: the challenge names no error (RFC 6750 section 3.1), only where
      // the metadata is, from which the host finds the authorization server.
      return Response.json(
        {
          error: 'unauthorized',
          error_description:
            'This MCP server is an OAuth protected resource: send an access token from the ' +
            'authorization server its metadata names.',
        },
        {
          status: 401,
          headers: {
            'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl}", scope="${challengeScopes.join(' ')}"`,
          },
        },
      );
    }
    let authInfo: AuthInfo;
    try {
      authInfo = await verifyBearerToken(header, {
        verifier,
        expectedResource: resource,
        resourceMetadataUrl,
      });
    } catch (error) {
      if (error instanceof OAuthError && error.code === OAuthErrorCode.TemporarilyUnavailable) {
        // As long as the verifier waits before it tries the issuer again.
        return Response.json(error.toResponseObject(), {
          status: 503,
          headers: { 'retry-after': String(OUTAGE_COOLDOWN_MS / 1000) },
        });
      }
      return bearerAuthChallengeResponse(error, {
        requiredScopes: challengeScopes,
        resourceMetadataUrl,
      });
    }
    if (request.method !== 'POST') return { authInfo, request };
    // The body is read here, capped, for the calls it makes; the MCP handler gets it rebuilt.
    const body = await readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
    if (body.tooLarge) {
      return Response.json(
        { error: `The request body is larger than ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes.` },
        { status: 413 },
      );
    }
    let messages: unknown;
    try {
      messages = JSON.parse(body.text);
    } catch {
      // Not JSON: the MCP handler answers it with its parse error.
    }
    if (Array.isArray(messages) && messages.length > MAX_BATCH_MESSAGES) {
      return Response.json(
        {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: `A batch holds at most ${MAX_BATCH_MESSAGES} messages; this one has ${messages.length}.`,
          },
        },
        { status: 400 },
      );
    }
    const missing = await missingScope(messages, tools, authInfo, scopes);
    if (missing !== undefined) {
      return bearerAuthChallengeResponse(
        new OAuthError(
          OAuthErrorCode.InsufficientScope,
          `${missing.tool} needs the scope ${missing.scope}, which this token lacks.`,
        ),
        { requiredScopes: [missing.scope], resourceMetadataUrl },
      );
    }
    if (logger) logToolCalls(logger, messages, callerOf(authInfo));
    return {
      authInfo,
      request: new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: body.text,
        signal: request.signal,
      }),
    };
  };

  return { metadataResponse, authorize, verifier };
}

/** Who a verified token names, as middleware is told: never the token. */
export function callerOf(authInfo: AuthInfo): Caller {
  const subject = authInfo.extra?.subject;
  return {
    subject: typeof subject === 'string' ? subject : undefined,
    clientId: authInfo.clientId,
    scopes: [...authInfo.scopes],
  };
}

/** One `info` line per tool call: the tool and who called it, so that logs can say who acted. */
function logToolCalls(logger: Logger, messages: unknown, caller: Caller): void {
  for (const message of Array.isArray(messages) ? messages : [messages]) {
    if ((message as { method?: unknown } | null)?.method !== 'tools/call') continue;
    const name = (message as { params?: { name?: unknown } }).params?.name;
    if (typeof name !== 'string') continue;
    logger.info(
      `agentchat-mcp: ${JSON.stringify(name.slice(0, 64))} called by subject ` +
        `${JSON.stringify(caller.subject ?? null)}, client ${JSON.stringify(caller.clientId)}`,
    );
  }
}
