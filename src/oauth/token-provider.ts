/**
 * The engine every OAuth 2.0 token provider runs on, whatever its grant (client credentials,
 * workload identity's jwt-bearer and token exchange): options read from arguments and the
 * environment, the token transport and its limits, the token request (the endpoint given or
 * discovered, the request's proof, the answer read into a token or an OAuthError), the fleet's
 * cache, and the provider that shares one token among every call. Each grant's file holds only
 * what that grant asks and how it proves who asks.
 */
import type * as z from 'zod/mini';
import type { WithResponse } from '../core/api-promise.js';
import { ClientWait } from '../core/client-wait.js';
import type { ApiKeyContext, ApiKeyFunction } from '../core/credential.js';
import {
  type AgentChatError,
  APIError,
  ConfigurationError,
  OAuthError,
  ResponseValidationError,
  type ValidationIssue,
} from '../core/errors/index.js';
import { type FetchOptions, fetchOptionsProblem } from '../core/fetch-options.js';
import { scrub } from '../core/redaction.js';
import { isRetryableStatus, retryDefaults } from '../core/retry-policy.js';
import { Transport, type TransportConfig } from '../core/transport.js';
import { validate } from '../core/validation.js';
import { readEnv } from '../internal/env.js';
import { isLoopback, userAgent } from '../internal/platform.js';
import { MAX_TOKEN_RESPONSE_BYTES } from './access-token.js';
import { cachedDiscovery } from './discovery.js';
import {
  type SharedToken,
  sharedToken,
  type Token,
  type TokenCache,
  type TokenIdentity,
} from './token-cache.js';
import {
  type ClientAuthentication,
  parseTokenUrl,
  type TokenEndpoint,
  type TokenForm,
  type TokenResponseSchema,
  tokenEndpoint,
  tokenResponseSchema,
} from './token-endpoint.js';

/** The defaults of every token provider: `clientCredentials`, `workloadIdentity`. */
export const defaults = {
  /**
   * Five minutes, written out: a product such as `5 * 60_000` is one esbuild keeps in every app's
   * bundle, OAuth or not.
   */
  refreshMarginMs: 300_000,
  /** How long one token request may take, in ms. */
  timeout: 30_000,
} as const;

/**
 * What is wrong with how a token provider's settings name its token endpoint (both `issuer` and
 * `tokenUrl`, or neither), or `undefined`; shared by every provider on this engine.
 */
export function endpointProblem(
  settings: { readonly issuer?: unknown; readonly tokenUrl?: unknown },
  label: (name: string) => string,
): string | undefined {
  if (settings.issuer !== undefined && settings.tokenUrl !== undefined) {
    return `${label('issuer')} and ${label('tokenUrl')} are both given: give the issuer (its metadata names the token endpoint) or the tokenUrl, not both`;
  }
  if (settings.issuer === undefined && settings.tokenUrl === undefined) {
    return 'tokenUrl: required; pass the tokenUrl option or set AGENTCHAT_TOKEN_URL, or give issuer (or AGENTCHAT_ISSUER) to find the token endpoint by discovery';
  }
  return undefined;
}

/** Fills `option`, when not given, from `variable`, turned into the option's value by `convert`. */
export type EnvironmentFill = (
  option: string,
  variable: string,
  convert?: (value: string) => unknown,
) => void;

/** `AGENTCHAT_RESOURCE`'s form: resources separated by spaces. */
export const spaceSeparated = (value: string): string[] => value.split(/\s+/);

/**
 * Reads a token provider's options: each left out filled from its environment variable by
 * `environment` (through `fill`, which leaves an option given alone), checked by `schema`, then
 * across options by `conflicts`. `label` names an option as given, with the variable it was read
 * from, for messages.
 *
 * @throws {@link ConfigurationError} listing every problem, headed by the `factory`'s name.
 */
export function readOptions<Settings>(
  factory: string,
  options: unknown,
  schema: z.ZodMiniType<Settings>,
  environment: (fill: EnvironmentFill, given: Readonly<Record<string, unknown>>) => void,
  conflicts: (settings: Settings, label: (name: string) => string) => string[],
): { settings: Settings; label: (name: string) => string } {
  const sources: Record<string, string> = {};
  let given: unknown = options;
  if (typeof options === 'object' && options !== null) {
    let copy: Record<string, unknown> | undefined;
    try {
      copy = { ...options };
    } catch {
      // An object that cannot be read: the schema says so.
    }
    if (copy) {
      const filled = copy;
      environment((option, variable, convert = (value) => value) => {
        if (filled[option] !== undefined) return;
        const value = readEnv(variable);
        if (value === undefined) return;
        filled[option] = convert(value);
        sources[option] = variable;
      }, filled);
      given = filled;
    }
  }
  const label = (name: string) =>
    sources[name] === undefined ? name : `${name} (from ${sources[name]})`;
  const checked = validate(schema, given);
  // Checked here, in the words the client uses (fetch-options.ts), for every provider alike.
  const fetchOptions = checked.ok
    ? (checked.data as { fetchOptions?: unknown }).fetchOptions
    : undefined;
  const fetchProblem = fetchOptions === undefined ? undefined : fetchOptionsProblem(fetchOptions);
  const problems = checked.ok
    ? [...conflicts(checked.data, label), ...(fetchProblem ? [fetchProblem] : [])]
    : checked.issues.map((issue) => {
        // `resource.1`: the option's name, then where in it.
        const [option = '', ...within] = issue.path.split('.');
        return `${[label(option), ...within].join('.')}: ${issue.message}`;
      });
  if (!checked.ok || problems.length > 0) {
    throw new ConfigurationError(`Invalid ${factory} options: ${problems.join('; ')}`);
  }
  return { settings: checked.data, label };
}

/** A URI, or a non-empty array of them: what `resource` takes. */
export function isResource(value: unknown): boolean {
  const all = Array.isArray(value) ? value : [value];
  return all.length > 0 && all.every((each) => typeof each === 'string' && each !== '');
}

/** An object with the methods of a {@link TokenCache}. */
export function isTokenCache(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { get, set, lease } = value as Record<string, unknown>;
  return (
    typeof get === 'function' &&
    typeof set === 'function' &&
    (lease === undefined || typeof lease === 'function')
  );
}

/**
 * The limits discovery and every token request share, with an empty base: the token endpoint may
 * be on any origin the issuer's metadata names. Each token request gets a transport of its own,
 * authorised by its own credential (an assertion is fresh each time): a token request is rare,
 * and a method on Transport for it would be in every app's bundle, OAuth or not.
 */
export function tokenTransport(
  fetch: typeof globalThis.fetch | undefined,
  fetchOptions: FetchOptions | undefined,
): TransportConfig {
  return {
    credential: { fixed: { header: undefined, secrets: [] } },
    baseUrl: '',
    maxRetries: retryDefaults.maxRetries,
    timeout: defaults.timeout,
    totalTimeout: undefined,
    maxResponseBytes: MAX_TOKEN_RESPONSE_BYTES,
    headers: {},
    fetch,
    fetchOptions: fetchOptions && { ...fetchOptions },
    userAgent: userAgent(),
    // X-AgentChat-Retry-Count is for the service: an identity provider never asked for it.
    retryCountHeader: false,
    log: undefined,
    middleware: [],
    // At most one token request is in flight, so its retries cannot pile up into a storm; a
    // Retry-After from the token endpoint holds this provider's next request, not the service's.
    retryBudget: undefined,
    clientWait: new ClientWait(),
  };
}

/** A fleet's cache, and what its key is made from. */
export interface FleetCache {
  readonly cache: TokenCache;
  readonly identity: TokenIdentity;
}

/**
 * The fleet's cache when the settings give one, keyed on where the token comes from, for whom, for
 * what, and how it is asked for (`authMethod`: a client's authentication, or a grant).
 */
export function fleetCache(
  settings: Omit<TokenIdentity, 'tokenUrl' | 'clientId' | 'authMethod'> & {
    readonly cache?: TokenCache | undefined;
    readonly tokenUrl?: string | undefined;
  },
  clientId: string,
  authMethod: string,
): FleetCache | undefined {
  return (
    settings.cache && {
      cache: settings.cache,
      identity: {
        tokenUrl: settings.tokenUrl ?? '',
        issuer: settings.issuer,
        clientId,
        scope: settings.scope,
        audience: settings.audience,
        resource: settings.resource,
        authMethod,
      },
    }
  );
}

/**
 * The token provider every grant shares: one token per provider, shared by every call; at most
 * one token request in flight; refreshed ahead of expiry while calls go on with the old one; never
 * sent once expired; a token the service refused (the 401 replay) replaced, and evicted from the
 * fleet's cache when there is one.
 */
export function sharedTokenProvider(
  request: TokenRequest,
  margin: number,
  fleet: FleetCache | undefined,
): ApiKeyFunction {
  // Where a failing cache is reported, and who the token is asked for: the logger and the
  // User-Agent of the client that made the latest call.
  let warn: ((message: string) => void) | undefined;
  let userAgent: string | undefined;
  const shared: SharedToken | undefined =
    fleet && sharedToken(fleet.cache, fleet.identity, margin, () => warn);
  const ask = () => request(userAgent);

  let current: Token | undefined;
  let pending: Promise<Token> | undefined;
  const refresh = (refused?: string): Promise<Token> => {
    pending ??= (shared ? shared.obtain(ask, refused) : ask()).then(
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
    if (context?.userAgent) userAgent = context.userAgent;
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

/**
 * A provider's token request: `userAgent` is the client's (its `appInfo` included), sent to the
 * token endpoint and discovery in place of the SDK's own; `undefined` keeps the SDK's.
 */
export type TokenRequest = (userAgent: string | undefined) => Promise<Token>;

/**
 * What a token request carries beyond the grant, made afresh for each: the client's
 * authentication, or a workload's identity token. `url` is the token endpoint the request goes to.
 */
export type RequestProof = (url: string) => Promise<ClientAuthentication>;

/**
 * The provider's token request, as one function: finds the token endpoint (given, or from the
 * issuer's metadata, read once and again after a failure), adds the request's proof (made afresh
 * each time) to the grant's fields, and asks.
 */
export function tokenRequester(
  target: { readonly issuer?: string | undefined; readonly tokenUrl?: URL | undefined },
  grant: TokenForm,
  proof: RequestProof,
  transport: TransportConfig,
  margin: number,
  answer: TokenResponseSchema = tokenResponseSchema(),
): TokenRequest {
  const { issuer, tokenUrl } = target;
  // The User-Agent of the latest token request, which discovery sends too.
  let agent = transport.userAgent;
  const discovery =
    issuer === undefined
      ? undefined
      : cachedDiscovery(issuer, {
          // A transport per read, as per token request: discovery reads once per provider.
          request: (endpoint, input) =>
            new Transport({ ...transport, userAgent: agent }).request(endpoint, input),
        });
  const given = tokenUrl && tokenEndpoint(tokenUrl);
  let discovered: { readonly url: string; readonly endpoint: TokenEndpoint } | undefined;

  const endpointOf = async (): Promise<{ endpoint: TokenEndpoint; url: string }> => {
    if (given) return { endpoint: given, url: given.path(grant) };
    const metadata = await (discovery as NonNullable<typeof discovery>).get();
    const named = metadata.token_endpoint;
    if (named === undefined) {
      throw new OAuthError({
        status: 200,
        problem: `the metadata of the issuer ${JSON.stringify(issuer)} names no token_endpoint`,
      });
    }
    if (discovered?.url !== named) {
      let url: URL;
      try {
        url = parseTokenUrl(named, 'token_endpoint');
      } catch {
        // The server's document is at fault, not the options: said as the server's failure.
        throw new OAuthError({
          status: 200,
          problem: `the metadata of the issuer ${JSON.stringify(issuer)} names a token_endpoint that is not an absolute http(s) URL without credentials: ${JSON.stringify(named)}`,
        });
      }
      // From an https issuer's document, a plain-http endpoint off loopback would carry the
      // client's credential in clear (RFC 6749 section 3.2 asks TLS of it): refused, not sent to.
      if (url.protocol === 'http:' && !isLoopback(url.hostname) && /^https:/i.test(issuer ?? '')) {
        throw new OAuthError({
          status: 200,
          problem: `the metadata of the issuer ${JSON.stringify(issuer)} names a token_endpoint on plain http, ${JSON.stringify(named)}; it must be https (or http on a loopback host), and nothing was sent to it`,
        });
      }
      discovered = { url: named, endpoint: tokenEndpoint(url) };
    }
    return discovered;
  };

  return async (userAgent) => {
    agent = userAgent ?? transport.userAgent;
    try {
      const { endpoint, url } = await endpointOf();
      const { fields, credential } = await proof(url);
      return await requestToken(
        new Transport({ ...transport, credential, userAgent: agent }),
        endpoint,
        [...grant, ...fields],
        margin,
        answer,
        credential.fixed.secrets,
      );
    } catch (error) {
      // The metadata may be what led here (an endpoint moved, a server replaced): read it again.
      discovery?.forget();
      throw error;
    }
  };
}

/**
 * Requests a token, checks the answer with `schema`, and reads when to refresh it from its
 * lifetime.
 */
async function requestToken(
  transport: Transport,
  endpoint: TokenEndpoint,
  form: TokenForm,
  margin: number,
  schema: TokenResponseSchema,
  secrets: readonly string[],
): Promise<Token> {
  const sentAt = Date.now();
  let read: WithResponse<Readonly<Record<string, unknown>>>;
  try {
    read = await transport.request(endpoint, form).withResponse();
  } catch (error) {
    throw refusal(error) ?? error;
  }
  const checked = validate(schema, read.data);
  if (!checked.ok) throw refusedAnswer(endpoint.path(form), read, checked.issues, secrets);
  const answer = checked.data;
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
 * The error for a successful answer the provider will not use, its tokens (and the request's
 * `secrets`, should it quote one) left out of the body it keeps: an error is logged, reported,
 * inspected. An `access_token` that cannot be sent as `Bearer <token>` is an OAuthError: the
 * endpoint is the culprit, not the caller's code, and blamed on the apiKey function (as a held
 * token would be, at every call until it expired) it would send the user to the wrong place. Any
 * other mismatch (a `token_type` other than Bearer, a token exchange's `issued_token_type`) is a
 * ResponseValidationError naming the field.
 */
function refusedAnswer(
  url: string,
  read: WithResponse<Readonly<Record<string, unknown>>>,
  issues: readonly ValidationIssue[],
  secrets: readonly string[],
): AgentChatError {
  const { response, requestId, data } = read;
  const unsendableToken = issues.find((each) => each.path === 'access_token')?.message;
  if (unsendableToken !== undefined) {
    return new OAuthError({ status: response.status, requestId, unsendableToken });
  }
  // Written out and read back, scrubbed as the transport scrubs the bodies of its errors: the
  // answer parsed as JSON once already, and scrubbing leaves JSON valid.
  const body: unknown = JSON.parse(scrub(JSON.stringify(data), secrets));
  return new ResponseValidationError(
    { method: 'POST', path: url },
    { status: response.status, requestId, body },
    issues,
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
