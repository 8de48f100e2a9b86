/**
 * Workload identity federation: the platform's identity token (GitHub Actions, Kubernetes, Google
 * Cloud) traded for an access token, with no secret anywhere. The grant is RFC 7523's jwt-bearer
 * (the identity token is the grant) or RFC 8693's token exchange; everything else (the shared
 * token, refresh ahead of expiry, the 401 replay, the fleet cache, discovery, the hardened token
 * endpoint, OAuthError) is the engine every token provider shares (token-provider.ts).
 */
import * as z from 'zod/mini';
import type { ApiKeyFunction } from '../core/credential.js';
import { OAuthError } from '../core/errors/index.js';
import type { FetchOptions } from '../core/fetch-options.js';
import { suppliedAssertion } from './client-assertion.js';
import {
  type IdentityTokenContext,
  type IdentityTokenSource,
  identityTokenProblem,
} from './identity-token.js';
import { identityTokenFile } from './identity-token-file.js';
import type { TokenCache } from './token-cache.js';
import {
  grantFields,
  parseTokenUrl,
  type TokenForm,
  type TokenResponseSchema,
  tokenResponseSchema,
} from './token-endpoint.js';
import {
  defaults,
  type EnvironmentFill,
  endpointProblem,
  fleetCache,
  isResource,
  isTokenCache,
  type RequestProof,
  readOptions,
  sharedTokenProvider,
  spaceSeparated,
  type TokenRequest,
  tokenRequester,
  tokenTransport,
} from './token-provider.js';

/** The grants a workload's identity token can be traded with. */
const GRANT_TYPES = {
  /** RFC 7523 section 2.1: the identity token is the grant. */
  'jwt-bearer': 'urn:ietf:params:oauth:grant-type:jwt-bearer',
  /** RFC 8693: the identity token is the subject token of an exchange. */
  'token-exchange': 'urn:ietf:params:oauth:grant-type:token-exchange',
} as const;

/** RFC 8693 section 3's token types this provider names. */
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * The `issued_token_type`s of a token exchange's answer that are the access token asked for: an
 * access token, or a JWT (which servers issuing JWT access tokens name it).
 */
const ISSUED_ACCESS_TOKEN_TYPES: readonly string[] = [ACCESS_TOKEN_TYPE, JWT_TOKEN_TYPE];

/** Token types whose tokens are JWTs, checked as such before they are sent. */
const JWT_TOKEN_TYPES: readonly string[] = [
  JWT_TOKEN_TYPE,
  'urn:ietf:params:oauth:token-type:id_token',
];

/**
 * Options of {@link workloadIdentity}: where tokens come from (`tokenUrl`, or `issuer` to find it),
 * the grant, the identity token's source, and what the token is for.
 *
 * @example
 * ```ts
 * const options: WorkloadIdentityOptions = {
 *   issuer: 'https://auth.example.com',
 *   clientId: 'reporting', // when the server ties the workload to a registered client
 *   identityToken: identityTokenFile('/var/run/secrets/tokens/agentchat'),
 *   scope: 'projects chat',
 * };
 * const client = new Client({ apiKey: workloadIdentity(options), baseUrl: 'https://host/api' });
 * ```
 */
export interface WorkloadIdentityOptions {
  /**
   * The token endpoint, an absolute http(s) URL. Give either this or `issuer`.
   * @default `AGENTCHAT_TOKEN_URL` when neither this nor `issuer` is given
   */
  tokenUrl?: string | undefined;
  /**
   * The authorization server's issuer identifier, instead of `tokenUrl`: the token endpoint is read
   * from its metadata (RFC 8414, then OpenID Connect Discovery), as {@link clientCredentials} does.
   * @default `AGENTCHAT_ISSUER` when neither this nor `tokenUrl` is given
   */
  issuer?: string | undefined;
  /**
   * How the identity token is traded: `'jwt-bearer'` (RFC 7523 section 2.1, sent as `assertion`)
   * or `'token-exchange'` (RFC 8693, sent as `subject_token` of type `subjectTokenType`, asking
   * for an access token), as the authorization server offers.
   * @default 'jwt-bearer'
   */
  grant?: 'jwt-bearer' | 'token-exchange' | undefined;
  /**
   * Where the platform's identity token comes from, called once per token request:
   * {@link identityTokenFile}, {@link githubActionsIdentityToken}, {@link googleIdentityToken}, or
   * any function answering the token. The token is a secret: never logged, never shown.
   * @default `identityTokenFile(AGENTCHAT_IDENTITY_TOKEN_FILE)`
   */
  identityToken?: IdentityTokenSource | undefined;
  /**
   * The client id, sent as `client_id` (a public client), for servers that tie the federation to a
   * registered client. Such a server refuses a request without one (`invalid_client`, or
   * oidc-provider's `invalid_request: no client authentication mechanism provided`): the
   * {@link OAuthError} then says to pass this option.
   * @default `AGENTCHAT_CLIENT_ID`, else no client id is sent
   */
  clientId?: string | undefined;
  /**
   * The scope to ask for, space-separated.
   * @default `AGENTCHAT_SCOPE`, else no scope is sent
   */
  scope?: string | undefined;
  /**
   * The audience to ask for (RFC 8693's `audience`, or a server's own extension).
   * @default `AGENTCHAT_AUDIENCE`, else no audience is sent
   */
  audience?: string | undefined;
  /**
   * The resource (RFC 8707) the token is for; an array sends each as its own `resource`.
   * @default `AGENTCHAT_RESOURCE` (space-separated), else no resource is sent
   */
  resource?: string | readonly string[] | undefined;
  /**
   * With `grant: 'token-exchange'`, the type of the identity token (RFC 8693 section 3), such as
   * `urn:ietf:params:oauth:token-type:id_token` for an OpenID Connect ID token.
   * @default 'urn:ietf:params:oauth:token-type:jwt'
   */
  subjectTokenType?: string | undefined;
  /**
   * How long before expiry a token is refreshed, in ms, capped at half the token's lifetime.
   * @default 300000 (5 minutes)
   */
  refreshMarginMs?: number | undefined;
  /**
   * The `fetch` for token requests, discovery and the identity source's own requests.
   * @default globalThis.fetch, looked up at each request
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Options merged into the init of every fetch the provider makes (token requests, discovery, and
   * the identity source's own requests), for what a runtime's `fetch` takes beyond the standard
   * (undici's `dispatcher` for a proxy or a private CA, Deno's `client`, Bun's `proxy` and `tls`),
   * as the client's option of that name. See {@link FetchOptions}.
   * @default none
   * @example
   * ```ts
   * import { EnvHttpProxyAgent } from 'undici';
   *
   * const apiKey = workloadIdentity({
   *   issuer: 'https://auth.example.com',
   *   identityToken: googleIdentityToken({ audience: 'https://auth.example.com' }),
   *   fetchOptions: { dispatcher: new EnvHttpProxyAgent() },
   * });
   * ```
   */
  fetchOptions?: FetchOptions | undefined;
  /**
   * A store shared by the processes of one workload (Redis, Valkey, Memcached, a KV), so that they
   * share one token: see {@link TokenCache}. Processes with another identity need another key
   * prefix or another store: the key is made from the settings, not from the identity token.
   * @default none: the token is shared within this process only
   */
  cache?: TokenCache | undefined;
}

/** The options' schema, made on use so that a bundle without workload identity drops it. */
function optionsSchema() {
  const text = z.string().check(z.minLength(1));
  const fn = <T>(message: string) =>
    z.optional(z.custom<T>((value) => typeof value === 'function', { message }));
  return z.strictObject({
    tokenUrl: z.optional(text),
    issuer: z.optional(text),
    grant: z.optional(z.enum(['jwt-bearer', 'token-exchange'])),
    identityToken: fn<IdentityTokenSource>(
      'expected a function answering the identity token, such as identityTokenFile(path)',
    ),
    clientId: z.optional(text),
    scope: z.optional(z.string()),
    audience: z.optional(z.string()),
    resource: z.optional(
      z.custom<string | readonly string[]>(isResource, {
        message: 'expected a URI, or a non-empty array of them',
      }),
    ),
    subjectTokenType: z.optional(text),
    refreshMarginMs: z.optional(z.number().check(z.gte(0))),
    fetch: fn<typeof globalThis.fetch>('expected a fetch function'),
    // Checked by readOptions, in the words the client uses (fetch-options.ts).
    fetchOptions: z.optional(z.custom<FetchOptions>()),
    cache: z.optional(
      z.custom<TokenCache>(isTokenCache, {
        message: 'expected an object with get and set functions, and optionally lease',
      }),
    ),
  });
}

type Settings = z.output<ReturnType<typeof optionsSchema>>;

/**
 * Fills each option left out from its variable: the identity token file, where tokens come from
 * (only when neither `issuer` nor `tokenUrl` is given), the client id, and what the token is for.
 */
function withEnvironment(fill: EnvironmentFill, given: Readonly<Record<string, unknown>>): void {
  fill('identityToken', 'AGENTCHAT_IDENTITY_TOKEN_FILE', identityTokenFile);
  if (given.tokenUrl === undefined && given.issuer === undefined) {
    fill('tokenUrl', 'AGENTCHAT_TOKEN_URL');
    fill('issuer', 'AGENTCHAT_ISSUER');
  }
  fill('clientId', 'AGENTCHAT_CLIENT_ID');
  fill('scope', 'AGENTCHAT_SCOPE');
  fill('audience', 'AGENTCHAT_AUDIENCE');
  fill('resource', 'AGENTCHAT_RESOURCE', spaceSeparated);
}

/** The checks across options, each with its way out. */
function conflicts(settings: Settings, label: (name: string) => string): string[] {
  const problems: string[] = [];
  const endpoint = endpointProblem(settings, label);
  if (endpoint !== undefined) problems.push(endpoint);
  if (settings.identityToken === undefined) {
    problems.push(
      'identityToken: required; pass a source such as identityTokenFile(path), githubActionsIdentityToken({ audience }) or googleIdentityToken({ audience }), or set AGENTCHAT_IDENTITY_TOKEN_FILE to the file the platform writes the token to',
    );
  }
  if (settings.subjectTokenType !== undefined && settings.grant !== 'token-exchange') {
    problems.push(
      "subjectTokenType: only sent with grant: 'token-exchange'; the jwt-bearer grant takes a JWT",
    );
  }
  return problems;
}

/**
 * Makes a token provider for workload identity federation, to pass as the client's `apiKey`: the
 * platform's identity token (a Kubernetes projected service-account token, a GitHub Actions or
 * Google Cloud OIDC token) is traded for an access token at the service's authorization server,
 * which trusts the platform's issuer. No secret is held anywhere.
 *
 * `grant: 'jwt-bearer'` (the default) sends RFC 7523 section 2.1's
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` with `assertion=<identity token>`;
 * `'token-exchange'` sends RFC 8693's `grant_type=urn:ietf:params:oauth:grant-type:token-exchange`
 * with `subject_token`, `subject_token_type` and `requested_token_type` (an access token). Either
 * way `client_id` goes when given, with `scope`, `audience` and `resource`.
 *
 * The identity source is called once per token request, for a fresh token. A source that fails
 * fails the call with {@link OAuthError} naming the platform setting to check; a token that cannot
 * be a JWT is refused before it is sent; a server that does not trust it answers `invalid_grant`,
 * an {@link OAuthError} too. Nothing reaches the service without an access token, and the identity
 * token never appears in an error, a log line or an inspected object.
 *
 * Everything else is as for {@link clientCredentials}: one token shared by every call and
 * refreshed ahead of expiry, the 401 replay, `cache` for a fleet, `issuer` discovery, retries of a
 * token endpoint that is down.
 *
 * Options left out are read from the environment: `identityToken` from
 * `AGENTCHAT_IDENTITY_TOKEN_FILE` (as `identityTokenFile` of it), `tokenUrl` or `issuer` from
 * `AGENTCHAT_TOKEN_URL` or `AGENTCHAT_ISSUER`, `clientId` from `AGENTCHAT_CLIENT_ID`, and `scope`,
 * `audience`, `resource` from `AGENTCHAT_SCOPE`, `AGENTCHAT_AUDIENCE`, `AGENTCHAT_RESOURCE`.
 *
 * @throws {@link ConfigurationError} when an option is missing (naming the option and its
 * variable) or invalid, at once.
 * @example
 * ```ts
 * import { Client, githubActionsIdentityToken, workloadIdentity } from 'agentchat';
 *
 * // Kubernetes: AGENTCHAT_IDENTITY_TOKEN_FILE and AGENTCHAT_ISSUER set in the pod's environment.
 * const client = new Client({ baseUrl: 'https://host/api', apiKey: workloadIdentity() });
 *
 * // GitHub Actions, with `permissions: id-token: write`:
 * const ci = new Client({
 *   baseUrl: 'https://host/api',
 *   apiKey: workloadIdentity({
 *     issuer: 'https://auth.example.com',
 *     identityToken: githubActionsIdentityToken({ audience: 'https://auth.example.com' }),
 *   }),
 * });
 * ```
 */
export function workloadIdentity(options: WorkloadIdentityOptions = {}): ApiKeyFunction {
  const { settings, label } = readOptions(
    'workloadIdentity',
    options,
    optionsSchema(),
    withEnvironment,
    conflicts,
  );
  const tokenUrl =
    settings.tokenUrl === undefined
      ? undefined
      : parseTokenUrl(settings.tokenUrl, label('tokenUrl'), 'workloadIdentity');
  if (settings.issuer !== undefined) {
    parseTokenUrl(settings.issuer, label('issuer'), 'workloadIdentity');
  }
  // Checked just now by conflicts().
  const source = settings.identityToken as IdentityTokenSource;
  const grant = settings.grant ?? 'jwt-bearer';
  const subjectTokenType = settings.subjectTokenType ?? JWT_TOKEN_TYPE;
  const parameters: TokenForm =
    grant === 'token-exchange'
      ? [
          ['subject_token_type', subjectTokenType],
          ['requested_token_type', ACCESS_TOKEN_TYPE],
        ]
      : [];
  const margin = settings.refreshMarginMs ?? defaults.refreshMarginMs;
  // A copy: options changed after the provider is made change nothing.
  const fetchOptions = settings.fetchOptions && { ...settings.fetchOptions };
  const requester = tokenRequester(
    { issuer: settings.issuer, tokenUrl },
    grantFields(GRANT_TYPES[grant], settings, parameters),
    identityProof(source, { fetch: settings.fetch, fetchOptions }, settings.clientId, {
      field: grant === 'token-exchange' ? 'subject_token' : 'assertion',
      mustBeJwt: grant === 'jwt-bearer' || JWT_TOKEN_TYPES.includes(subjectTokenType),
    }),
    tokenTransport(settings.fetch, fetchOptions),
    margin,
    // RFC 8693 section 2.2.1: an exchange may answer another kind of token than the one asked
    // for (a refresh, ID or SAML token), which must never be sent to the service as a bearer.
    grant === 'token-exchange' ? exchangeAnswerSchema() : undefined,
  );
  const request = settings.clientId === undefined ? withClientIdHint(requester) : requester;
  return sharedTokenProvider(
    request,
    margin,
    // The grant stands where client credentials name their authentication: a token from one grant
    // is never taken for another's.
    fleetCache(
      settings,
      settings.clientId ?? '',
      grant === 'token-exchange' ? `${grant} ${subjectTokenType}` : grant,
    ),
  );
}

/**
 * A token exchange's answer: a token endpoint's, whose `issued_token_type` must also be the
 * access token asked for (RFC 8693 section 2.2.1).
 */
function exchangeAnswerSchema(): TokenResponseSchema {
  return tokenResponseSchema().check(
    z.superRefine((answer, context) => {
      const issued = answer.issued_token_type;
      const problem = issuedTokenTypeProblem(issued);
      if (problem) {
        context.addIssue({
          code: 'custom',
          message: problem,
          input: issued,
          path: ['issued_token_type'],
        });
      }
    }),
  );
}

/** What is wrong with a token exchange's `issued_token_type`, or `undefined` when it is one asked for. */
function issuedTokenTypeProblem(issued: unknown): string | undefined {
  if (typeof issued === 'string' && ISSUED_ACCESS_TOKEN_TYPES.includes(issued)) return undefined;
  const received =
    issued === undefined
      ? 'is missing'
      : typeof issued === 'string'
        ? `is ${JSON.stringify(issued)}`
        : 'is not a string';
  // The types asked for by their last part (access_token, jwt): the message stays short enough
  // to be shown whole.
  const asked = ISSUED_ACCESS_TOKEN_TYPES.map((type) => type.slice(type.lastIndexOf(':') + 1));
  return `${received}, not the ${asked.join(' or ')} asked for (RFC 8693 section 2.2.1); the token was not used`;
}

/**
 * The identity token as the token request's proof: asked of the source for each request, checked
 * (present, a JWT where the grant says so), sent in `field` with `client_id` when given, and kept
 * out of every message as a secret.
 */
function identityProof(
  source: IdentityTokenSource,
  context: IdentityTokenContext,
  clientId: string | undefined,
  how: { readonly field: 'assertion' | 'subject_token'; readonly mustBeJwt: boolean },
): RequestProof {
  return async () => {
    const token = await suppliedAssertion(() => source(context), 'the identityToken source');
    const problem = how.mustBeJwt ? identityTokenProblem(token) : undefined;
    if (problem) {
      throw new OAuthError({
        status: 0,
        problem: `the identity token cannot be a JWT (${problem}), so no token was asked for; check that the identityToken source answers the platform's signed token, not a path or a placeholder`,
      });
    }
    const fields: (readonly [string, string])[] = [[how.field, token]];
    if (clientId !== undefined) fields.push(['client_id', clientId]);
    return { fields, credential: { fixed: { header: undefined, secrets: [token] } } };
  };
}

/**
 * `request`, its refusals for want of a client (`invalid_client`, or an `invalid_request` about
 * client authentication, as oidc-provider answers `no client authentication mechanism provided`)
 * pointing to `clientId`: a server that ties the federation to a registered client refuses a
 * request that names none, and its own words do not say which option is missing.
 */
function withClientIdHint(request: TokenRequest): TokenRequest {
  return async (userAgent) => {
    try {
      return await request(userAgent);
    } catch (error) {
      throw clientIdHint(error) ?? error;
    }
  };
}

function clientIdHint(error: unknown): OAuthError | undefined {
  if (!(error instanceof OAuthError)) return undefined;
  const about = error.error === 'invalid_request' ? error.errorDescription : undefined;
  if (error.error !== 'invalid_client' && !/\bclient\b/i.test(about ?? '')) return undefined;
  const reason = [error.error, error.errorDescription].filter(Boolean).join(': ');
  return new OAuthError({
    status: error.status,
    error: error.error,
    errorDescription: error.errorDescription,
    requestId: error.requestId,
    problem: `the token endpoint refused to issue a token (status ${error.status}, ${reason}): it asks which client is calling, and no clientId was given; pass the clientId option (or set AGENTCHAT_CLIENT_ID) to the client id the authorization server registered for this workload`,
  });
}
