/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4): a token provider to pass as `apiKey`. One
 * token per provider, shared by every call; at most one token request in flight; refreshed ahead
 * of expiry while calls go on with the old one; never sent once expired.
 */
import * as z from 'zod/mini';
import { ClientWait } from '../core/client-wait.js';
import type { ApiKeyContext, ApiKeyFunction } from '../core/credential.js';
import {
  AgentChatError,
  APIError,
  OAuthError,
  ResponseValidationError,
} from '../core/errors/index.js';
import { isRetryableStatus, retryDefaults } from '../core/retry-policy.js';
import { Transport } from '../core/transport.js';
import { validate } from '../core/validation.js';
import { userAgent } from '../internal/platform.js';
import { type SharedToken, sharedToken, type Token, type TokenCache } from './token-cache.js';
import { type TokenEndpoint, tokenEndpoint } from './token-endpoint.js';

/**
 * Options for {@link clientCredentials}.
 *
 * @example
 * ```ts
 * const options: ClientCredentialsOptions = {
 *   tokenUrl: 'https://auth.example.com/oauth/token',
 *   clientId: 'my-service',
 *   clientSecret: process.env.AGENTCHAT_CLIENT_SECRET ?? '',
 *   scope: 'projects chat',
 * };
 * const client = new Client({ apiKey: clientCredentials(options), baseUrl: 'https://host/api' });
 * ```
 */
export interface ClientCredentialsOptions {
  /**
   * The token endpoint, an absolute http(s) URL such as `https://auth.example.com/oauth/token`.
   * @default none: required
   */
  tokenUrl: string;
  /**
   * The client identifier the authorization server issued.
   * @default none: required
   */
  clientId: string;
  /**
   * The client secret. Never logged, never shown in an error or an inspected object.
   * @default none: required
   */
  clientSecret: string;
  /**
   * The scope to ask for, space-separated, when the server wants one.
   * @default none: no scope is sent
   */
  scope?: string | undefined;
  /**
   * The audience to ask for (an extension some servers require), when the server wants one.
   * @default none: no audience is sent
   */
  audience?: string | undefined;
  /**
   * How the client authenticates to the token endpoint: HTTP Basic (RFC 6749 section 2.3.1), or
   * `client_id` and `client_secret` in the form body.
   * @default 'client_secret_basic'
   */
  authMethod?: 'client_secret_basic' | 'client_secret_post' | undefined;
  /**
   * How long before expiry a token is refreshed, in ms. Capped at half the token's lifetime, so a
   * short-lived token is not refreshed for ever.
   * @default 300000 (5 minutes)
   */
  refreshMarginMs?: number | undefined;
  /**
   * The `fetch` for token requests, such as one with a proxy agent.
   * @default globalThis.fetch, looked up at each request
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * A store shared by every process of a fleet (Redis, Valkey, Memcached, a KV), so that they
   * share one token rather than each asking the token endpoint: see {@link TokenCache}. A cache
   * that fails or stalls fails no call: the provider goes on with its own token and warns once
   * through the client's logger.
   * @default none: the token is shared within this process only
   */
  cache?: TokenCache | undefined;
}

/** The defaults of {@link clientCredentials}. */
const defaults = {
  /**
   * Five minutes, written out: a product such as `5 * 60_000` is one esbuild keeps in every app's
   * bundle, OAuth or not.
   */
  refreshMarginMs: 300_000,
  /** How long one token request may take, in ms. */
  timeout: 30_000,
} as const;

/** The options' schema, made on use so that a bundle without client credentials drops it. */
function optionsSchema() {
  return z.strictObject({
    tokenUrl: z.string().check(z.minLength(1)),
    clientId: z.string().check(z.minLength(1)),
    clientSecret: z.string().check(z.minLength(1)),
    scope: z.optional(z.string()),
    audience: z.optional(z.string()),
    authMethod: z.optional(z.enum(['client_secret_basic', 'client_secret_post'])),
    refreshMarginMs: z.optional(z.number().check(z.gte(0))),
    fetch: z.optional(z.custom<typeof globalThis.fetch>((v) => typeof v === 'function')),
    cache: z.optional(
      z.custom<TokenCache>(isTokenCache, {
        message: 'expected an object with get and set functions, and optionally lease',
      }),
    ),
  });
}

function isTokenCache(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { get, set, lease } = value as Record<string, unknown>;
  return (
    typeof get === 'function' &&
    typeof set === 'function' &&
    (lease === undefined || typeof lease === 'function')
  );
}

/**
 * Makes a token provider for OAuth 2.0 client credentials, to pass as the client's `apiKey`.
 *
 * Tokens are requested from `tokenUrl` as RFC 6749 section 4.4 says, cached and shared by every
 * call through the provider, and refreshed `min(refreshMarginMs, half the lifetime)` before they
 * expire (the lifetime counted from when the request was sent). However many calls wait, at most
 * one token request is in flight. While a token is still valid, a failed refresh fails no call;
 * an expired token is never sent. When the service answers 401, the client asks the provider for
 * a fresh token and replays the call once.
 *
 * With `cache`, the same rules hold for a fleet: the token is read from and written to the cache,
 * one process asks the token endpoint while the others wait and re-read (when the cache has
 * `lease`), and a token the service refused is evicted. See {@link TokenCache}.
 *
 * A token endpoint that refuses rejects the call with {@link OAuthError}; one that is down is
 * retried with the client's backoff, then gives {@link APIConnectionError} or the status's
 * {@link APIError}. Nothing reaches the service without a token.
 *
 * @throws {@link AgentChatError} when an option is missing or invalid.
 * @example
 * ```ts
 * import { Client, clientCredentials } from 'agentchat';
 *
 * const client = new Client({
 *   baseUrl: 'https://host/api',
 *   apiKey: clientCredentials({
 *     tokenUrl: 'https://host/api/oauth/token',
 *     clientId: process.env.AGENTCHAT_CLIENT_ID ?? '',
 *     clientSecret: process.env.AGENTCHAT_CLIENT_SECRET ?? '',
 *   }),
 * });
 * ```
 */
export function clientCredentials(options: ClientCredentialsOptions): ApiKeyFunction {
  const checked = validate(optionsSchema(), options);
  if (!checked.ok) {
    const list = checked.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    throw new AgentChatError(`Invalid clientCredentials options: ${list}`);
  }
  const settings = checked.data;
  const endpoint = tokenEndpoint(settings);
  const transport = new Transport({
    credential: endpoint.credential,
    baseUrl: endpoint.origin,
    maxRetries: retryDefaults.maxRetries,
    timeout: defaults.timeout,
    totalTimeout: undefined,
    maxResponseBytes: endpoint.maxResponseBytes,
    headers: {},
    fetch: settings.fetch,
    userAgent: userAgent(),
    log: undefined,
    middleware: [],
    // At most one token request is in flight, so its retries cannot pile up into a storm; a
    // Retry-After from the token endpoint holds this provider's next request, not the service's.
    retryBudget: undefined,
    clientWait: new ClientWait(),
  });
  const margin = settings.refreshMarginMs ?? defaults.refreshMarginMs;

  // Where a failing cache is reported: the logger of the client that made the latest call.
  let warn: ((message: string) => void) | undefined;
  const shared: SharedToken | undefined =
    settings.cache && sharedToken(settings.cache, settings, margin, () => warn);
  const request = () => requestToken(transport, endpoint, margin);

  let current: Token | undefined;
  let pending: Promise<Token> | undefined;
  const refresh = (refused?: string): Promise<Token> => {
    pending ??= (shared ? shared.obtain(request, refused) : request()).then(
      (token) => {
        current = token;
        pending = undefined;
        return token;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };

  return async function clientCredentialsToken(context?: ApiKeyContext): Promise<string> {
    if (context?.warn) warn = context.warn;
    const refused = context?.rejected;
    // The service refused the token we hold: it is no good, whatever its expiry says. A call that
    // was refused a token already replaced gets the new one.
    if (refused !== undefined && current?.value === refused) current = undefined;
    const now = Date.now();
    if (current && now < current.refreshAt) return current.value;
    if (current && now < current.expiresAt) {
      // Refresh ahead; until it lands, and if it fails, the token in hand still serves.
      refresh().catch(() => {});
      return current.value;
    }
    const token = await refresh(refused);
    // A refresh that began before the refusal may have read the refused token from the cache.
    return token.value === refused ? (await refresh(refused)).value : token.value;
  };
}

/** Requests a token, and reads when to refresh it from its lifetime. */
async function requestToken(
  transport: Transport,
  endpoint: TokenEndpoint,
  margin: number,
): Promise<Token> {
  const sentAt = Date.now();
  let answer: { access_token: string; expires_in?: number | undefined };
  try {
    answer = await transport.request(endpoint, endpoint.form);
  } catch (error) {
    throw refusal(error) ?? unsendable(error) ?? error;
  }
  // A token without a lifetime serves until the service refuses it (the 401 replay).
  if (answer.expires_in === undefined) {
    return {
      value: answer.access_token,
      issuedAt: sentAt,
      refreshAt: Infinity,
      expiresAt: Infinity,
    };
  }
  const lifetime = answer.expires_in * 1000;
  return {
    value: answer.access_token,
    issuedAt: sentAt,
    refreshAt: sentAt + lifetime - Math.min(margin, lifetime / 2),
    expiresAt: sentAt + lifetime,
  };
}

/**
 * The OAuthError for an answer whose `access_token` cannot be sent as `Bearer <token>`, or
 * `undefined`. The endpoint is the culprit, not the caller's code: blamed on the apiKey function
 * (as a held token would be, at every call until it expired), it would send the user to the wrong
 * place.
 */
function unsendable(error: unknown): OAuthError | undefined {
  if (!(error instanceof ResponseValidationError)) return undefined;
  const issue = error.issues.find((each) => each.path === 'access_token');
  return (
    issue &&
    new OAuthError({
      status: error.status,
      requestId: error.requestId,
      unsendableToken: issue.message,
    })
  );
}

/**
 * The OAuthError a refusal from the token endpoint stands for (RFC 6749 section 5.2: a 4xx), or
 * `undefined` for anything else. Statuses the policy retries (408, 409, 429, 5xx) stay what they
 * are: the endpoint is busy or down, not refusing.
 */
function refusal(error: unknown): OAuthError | undefined {
  // A redirect (3xx) is no refusal: it stays the RedirectError it is.
  if (!(error instanceof APIError) || error.status < 400 || isRetryableStatus(error.status)) {
    return undefined;
  }
  const body = (typeof error.body === 'object' && error.body !== null ? error.body : {}) as {
    error?: unknown;
    error_description?: unknown;
  };
  return new OAuthError({
    status: error.status,
    error: typeof body.error === 'string' ? body.error : undefined,
    errorDescription:
      typeof body.error_description === 'string' ? body.error_description : undefined,
    requestId: error.requestId,
  });
}
