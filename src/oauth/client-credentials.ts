/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4): a token provider to pass as `apiKey`. One
 * token per provider, shared by every call; at most one token request in flight; refreshed ahead
 * of expiry while calls go on with the old one; never sent once expired.
 */
import * as z from 'zod/mini';
import type { ApiKeyFunction } from '../core/credential.js';
import type { FetchOptions } from '../core/fetch-options.js';
import {
  assertionSigner,
  type PrivateKey,
  privateKeyProblem,
  suppliedAssertion,
} from './client-assertion.js';
import { type SigningAlgorithm, signingAlgorithms } from './signing-algorithms.js';
import type { TokenCache } from './token-cache.js';
import {
  assertionAuthentication,
  grantFields,
  parseTokenUrl,
  secretAuthentication,
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
  tokenRequester,
  tokenTransport,
} from './token-provider.js';

/**
 * Options for {@link clientCredentials}: where tokens come from (`tokenUrl`, or `issuer` to find
 * it), who asks (`clientId` and one credential: `clientSecret`, `privateKey` or
 * `clientAssertion`), and what for (`scope`, `audience`, `resource`). An option left out is read
 * from its environment variable, as `agentchat-mcp` reads them (see {@link clientCredentials}).
 *
 * @example
 * ```ts
 * const options: ClientCredentialsOptions = {
 *   tokenUrl: 'https://auth.example.com/oauth/token',
 *   clientId: 'my-service',
 *   clientSecret: 's3cret', // or leave it out, and set AGENTCHAT_CLIENT_SECRET
 *   scope: 'projects chat',
 * };
 * const client = new Client({ apiKey: clientCredentials(options), baseUrl: 'https://host/api' });
 * ```
 */
export interface ClientCredentialsOptions {
  /**
   * The token endpoint, an absolute http(s) URL such as `https://auth.example.com/oauth/token`.
   * Give either this or `issuer`.
   * @default `AGENTCHAT_TOKEN_URL` when neither this nor `issuer` is given; required unless `issuer` is given
   */
  tokenUrl?: string | undefined;
  /**
   * The authorization server's issuer identifier, such as
   * `https://login.microsoftonline.com/<tenant>/v2.0`, instead of `tokenUrl`: the token endpoint
   * is read from its metadata (RFC 8414, then OpenID Connect Discovery), once per provider and
   * again only after a failure. A document naming another issuer is refused with
   * {@link OAuthError} (the mix-up defence), and nothing is sent.
   * @default `AGENTCHAT_ISSUER` when neither this nor `tokenUrl` is given
   */
  issuer?: string | undefined;
  /**
   * The client identifier the authorization server issued. Required by this type, as it always
   * was; `clientCredentials` itself also takes options without it, and reads
   * `AGENTCHAT_CLIENT_ID` then.
   * @default `AGENTCHAT_CLIENT_ID`: required, here or there
   */
  clientId: string;
  /**
   * The client secret, for `client_secret_basic` and `client_secret_post`. Never logged, never
   * shown in an error or an inspected object.
   * @default `AGENTCHAT_CLIENT_SECRET` when no credential is given; else give this, `privateKey` or `clientAssertion`
   */
  clientSecret?: string | undefined;
  /**
   * The private key of `private_key_jwt` (RFC 7523): a PKCS#8 PEM string, a private JWK or a
   * `CryptoKey`. Each token request carries a fresh assertion signed with it. A secret like the
   * client secret: never logged, never shown.
   * @default none: give this, `clientSecret` or `clientAssertion`
   */
  privateKey?: PrivateKey | undefined;
  /**
   * The key's identifier, sent as the assertion's `kid`, when the server holds several keys for
   * the client.
   * @default `AGENTCHAT_KEY_ID` with a `privateKey`, else no `kid`
   */
  keyId?: string | undefined;
  /**
   * The base64url SHA-256 thumbprint of the certificate registered for the key, sent as the
   * assertion's `x5t#S256` header, as Entra ID asks.
   * @default `AGENTCHAT_CERTIFICATE_THUMBPRINT` with a `privateKey`, else no `x5t#S256`
   */
  certificateThumbprint?: string | undefined;
  /**
   * The algorithm assertions are signed with.
   * @default `AGENTCHAT_KEY_ALGORITHM` with a `privateKey`, else the key's own (a JWK's `alg` or curve, a CryptoKey's algorithm, a PEM's key type), else 'RS256'
   */
  algorithm?: SigningAlgorithm | undefined;
  /**
   * Workload identity: hands out the assertion a token request is authenticated with (a
   * Kubernetes service-account token, a CI OIDC token), called once per token request and sent
   * as `client_assertion` with the jwt-bearer type. No secret is needed. A callback that throws or
   * answers a blank string fails the call with {@link OAuthError}, and nothing is sent.
   * @default none: give this, `clientSecret` or `privateKey`
   */
  clientAssertion?: (() => string | Promise<string>) | undefined;
  /**
   * The scope to ask for, space-separated, when the server wants one.
   * @default `AGENTCHAT_SCOPE`, else no scope is sent
   */
  scope?: string | undefined;
  /**
   * The audience to ask for (an extension some servers require), when the server wants one.
   * @default `AGENTCHAT_AUDIENCE`, else no audience is sent
   */
  audience?: string | undefined;
  /**
   * The resource (RFC 8707) the token is for, an absolute URI; an array sends each as its own
   * `resource` parameter. Servers that honour it issue a token whose `aud` is that resource.
   * @default `AGENTCHAT_RESOURCE` (space-separated), else no resource is sent
   */
  resource?: string | readonly string[] | undefined;
  /**
   * How the client authenticates to the token endpoint: HTTP Basic (RFC 6749 section 2.3.1),
   * `client_id` and `client_secret` in the form body, or an assertion signed with `privateKey`
   * (RFC 7523). Not needed with `clientAssertion`.
   * @default `AGENTCHAT_AUTH_METHOD` with a clientSecret, else 'client_secret_basic' with a clientSecret, 'private_key_jwt' with a privateKey
   */
  authMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | undefined;
  /**
   * How long before expiry a token is refreshed, in ms. Capped at half the token's lifetime, so a
   * short-lived token is not refreshed for ever.
   * @default 300000 (5 minutes)
   */
  refreshMarginMs?: number | undefined;
  /**
   * The `fetch` for token requests and discovery, called as the client's `fetch` option is: with
   * a URL string and an init of plain values. For a proxy or a CA, `fetchOptions` is usually all
   * it takes.
   * @default globalThis.fetch, looked up at each request
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Options merged into the init of every token request and discovery fetch, for what a runtime's
   * `fetch` takes beyond the standard (undici's `dispatcher` for a proxy or a private CA, Deno's
   * `client`, Bun's `proxy` and `tls`), as the client's option of that name. See
   * {@link FetchOptions}.
   * @default none
   * @example
   * ```ts
   * import { ProxyAgent } from 'undici';
   *
   * const fetchOptions = { dispatcher: new ProxyAgent(process.env.HTTPS_PROXY ?? '') };
   * new Client({
   *   baseUrl: 'https://host/api',
   *   fetchOptions,
   *   apiKey: clientCredentials({ issuer: 'https://login.example.com', clientId: 'svc', fetchOptions }),
   * });
   * ```
   */
  fetchOptions?: FetchOptions | undefined;
  /**
   * A store shared by every process of a fleet (Redis, Valkey, Memcached, a KV), so that they
   * share one token rather than each asking the token endpoint: see {@link TokenCache}. A cache
   * that fails or stalls fails no call: the provider goes on with its own token and warns once
   * through the client's logger.
   * @default none: the token is shared within this process only
   */
  cache?: TokenCache | undefined;
}

/** The options' schema, made on use so that a bundle without client credentials drops it. */
function optionsSchema() {
  const text = z.string().check(z.minLength(1));
  return z.strictObject({
    tokenUrl: z.optional(text),
    issuer: z.optional(text),
    clientId: z.optional(text),
    clientSecret: z.optional(text),
    privateKey: z.optional(
      z.custom<PrivateKey>((value) => privateKeyProblem(value) === undefined, {
        // Never the key itself: a secret, whatever shape it came in.
        error: (issue) => privateKeyProblem(issue.input) ?? 'invalid',
      }),
    ),
    keyId: z.optional(text),
    certificateThumbprint: z.optional(text),
    algorithm: z.optional(z.enum(signingAlgorithms)),
    clientAssertion: z.optional(
      z.custom<() => string | Promise<string>>((v) => typeof v === 'function', {
        message: 'expected a function answering the assertion',
      }),
    ),
    scope: z.optional(z.string()),
    audience: z.optional(z.string()),
    // A custom check rather than z.union and z.array, which would add 0.5 KiB min+gzip to every
    // app that uses client credentials.
    resource: z.optional(
      z.custom<string | readonly string[]>(isResource, {
        message: 'expected a URI, or a non-empty array of them',
      }),
    ),
    authMethod: z.optional(
      z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt']),
    ),
    refreshMarginMs: z.optional(z.number().check(z.gte(0))),
    fetch: z.optional(z.custom<typeof globalThis.fetch>((v) => typeof v === 'function')),
    // Checked by clientCredentials, in the words the client uses (fetch-options.ts).
    fetchOptions: z.optional(z.custom<FetchOptions>()),
    cache: z.optional(
      z.custom<TokenCache>(isTokenCache, {
        message: 'expected an object with get and set functions, and optionally lease',
      }),
    ),
  });
}

type Settings = z.output<ReturnType<typeof optionsSchema>>;

/** The settings once every check has passed: a client id is there, given or read. */
type CheckedSettings = Settings & { clientId: string };

/** How the client authenticates, once the options are read. */
type AuthMethod =
  | 'client_secret_basic'
  | 'client_secret_post'
  | 'private_key_jwt'
  | 'client_assertion';

/**
 * The checks across options, with a way out for each: who asks, where tokens come from, and one
 * credential that fits the method. `label` names an option as given (with the variable it was
 * read from). Answers the problems, empty when there are none.
 */
function conflicts(settings: Settings, label: (name: string) => string): string[] {
  const problems: string[] = [];
  if (settings.clientId === undefined) {
    problems.push('clientId: required; pass the clientId option or set AGENTCHAT_CLIENT_ID');
  }
  const endpoint = endpointProblem(settings, label);
  if (endpoint !== undefined) problems.push(endpoint);
  const given = (['clientSecret', 'privateKey', 'clientAssertion'] as const).filter(
    (name) => settings[name] !== undefined,
  );
  const method = settings.authMethod;
  if (given.length > 1) {
    problems.push(
      `${given.join(' and ')} are ${given.length === 2 ? 'both' : 'all'} given: give one credential`,
    );
  } else if (given.length === 0) {
    problems.push(
      method === 'private_key_jwt'
        ? "privateKey: required with authMethod: 'private_key_jwt'"
        : 'clientSecret: required; pass the clientSecret option or set AGENTCHAT_CLIENT_SECRET, or give privateKey (private_key_jwt) or clientAssertion (workload identity)',
    );
  } else if (
    settings.privateKey !== undefined &&
    method !== undefined &&
    method !== 'private_key_jwt'
  ) {
    problems.push(
      `privateKey: signs private_key_jwt assertions; did you mean authMethod: 'private_key_jwt' rather than '${method}'?`,
    );
  } else if (settings.clientSecret !== undefined && method === 'private_key_jwt') {
    problems.push(
      `${label('authMethod')}: 'private_key_jwt' signs with a privateKey; did you mean privateKey rather than clientSecret?`,
    );
  } else if (settings.clientAssertion !== undefined && method !== undefined) {
    problems.push(
      `authMethod: not needed with clientAssertion, which is sent as a jwt-bearer assertion; remove authMethod '${method}'`,
    );
  }
  const keyless = settings.privateKey === undefined;
  for (const name of ['keyId', 'algorithm', 'certificateThumbprint'] as const) {
    if (keyless && settings[name] !== undefined)
      problems.push(`${name}: only used with privateKey`);
  }
  return problems;
}

/**
 * Fills each option left out from its environment variable, the variables `agentchat-mcp` reads
 * (see {@link readOptions}). A variable fills
 * only an option that fits beside those given: no token URL beside a given issuer, no secret
 * beside a given key or assertion callback, an auth method only for a secret, key settings only
 * for a key. The key and assertion files of `agentchat-mcp` are not read: they are files, which
 * not every runtime can read.
 */
function withEnvironment(fill: EnvironmentFill, given: Readonly<Record<string, unknown>>): void {
  fill('clientId', 'AGENTCHAT_CLIENT_ID');
  if (given.tokenUrl === undefined && given.issuer === undefined) {
    fill('tokenUrl', 'AGENTCHAT_TOKEN_URL');
    fill('issuer', 'AGENTCHAT_ISSUER');
  }
  const credentials = [given.clientSecret, given.privateKey, given.clientAssertion];
  if (credentials.every((each) => each === undefined))
    fill('clientSecret', 'AGENTCHAT_CLIENT_SECRET');
  if (given.clientSecret !== undefined) fill('authMethod', 'AGENTCHAT_AUTH_METHOD');
  if (given.privateKey !== undefined) {
    fill('keyId', 'AGENTCHAT_KEY_ID');
    fill('algorithm', 'AGENTCHAT_KEY_ALGORITHM');
    fill('certificateThumbprint', 'AGENTCHAT_CERTIFICATE_THUMBPRINT');
  }
  fill('scope', 'AGENTCHAT_SCOPE');
  fill('audience', 'AGENTCHAT_AUDIENCE');
  fill('resource', 'AGENTCHAT_RESOURCE', spaceSeparated);
}

/** The method the options choose. */
function authMethodOf(settings: Settings): AuthMethod {
  if (settings.clientAssertion) return 'client_assertion';
  if (settings.privateKey !== undefined) return 'private_key_jwt';
  return settings.authMethod === 'client_secret_post'
    ? 'client_secret_post'
    : 'client_secret_basic';
}

/**
 * Makes a token provider for OAuth 2.0 client credentials, to pass as the client's `apiKey`.
 *
 * Tokens are requested from `tokenUrl`, or from the token endpoint the `issuer`'s metadata names,
 * as RFC 6749 section 4.4 says, the client authenticated by its secret, by an assertion signed
 * with its `privateKey`, or by one `clientAssertion` hands out; they are cached and shared by every
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
 * Options left out are read from the environment (where the runtime has one), with the names
 * `agentchat-mcp` reads: `AGENTCHAT_CLIENT_ID`, `AGENTCHAT_CLIENT_SECRET`, `AGENTCHAT_TOKEN_URL`
 * or `AGENTCHAT_ISSUER`, and `AGENTCHAT_SCOPE`, `AGENTCHAT_AUDIENCE`, `AGENTCHAT_RESOURCE`
 * (space-separated), `AGENTCHAT_AUTH_METHOD` (with a secret), `AGENTCHAT_KEY_ID`,
 * `AGENTCHAT_KEY_ALGORITHM` and `AGENTCHAT_CERTIFICATE_THUMBPRINT` (with a `privateKey`). An
 * option given always wins over its variable, and a blank variable counts as unset. The key and
 * assertion files `agentchat-mcp` reads (`AGENTCHAT_PRIVATE_KEY_FILE`,
 * `AGENTCHAT_CLIENT_ASSERTION_FILE`) are not: pass `privateKey` or `clientAssertion`.
 *
 * @throws {@link ConfigurationError} when an option is missing (naming the option and its
 * variable) or invalid, at once.
 * @example
 * ```ts
 * import { Client, clientCredentials } from 'agentchat';
 *
 * // AGENTCHAT_CLIENT_ID, AGENTCHAT_CLIENT_SECRET and AGENTCHAT_TOKEN_URL set in the environment:
 * const client = new Client({ baseUrl: 'https://host/api', apiKey: clientCredentials() });
 *
 * // Or each option given, which wins over its variable:
 * const reporting = new Client({
 *   baseUrl: 'https://host/api',
 *   apiKey: clientCredentials({
 *     tokenUrl: 'https://host/api/oauth/token',
 *     clientId: 'reporting',
 *     clientSecret: 's3cret',
 *   }),
 * });
 * ```
 */
export function clientCredentials(options: Partial<ClientCredentialsOptions> = {}): ApiKeyFunction {
  const read = readOptions(
    'clientCredentials',
    options,
    optionsSchema(),
    withEnvironment,
    conflicts,
  );
  const { label } = read;
  // Checked just now by conflicts().
  const settings = read.settings as CheckedSettings;
  const authMethod = authMethodOf(settings);
  const tokenUrl =
    settings.tokenUrl === undefined
      ? undefined
      : parseTokenUrl(settings.tokenUrl, label('tokenUrl'));
  if (settings.issuer !== undefined) parseTokenUrl(settings.issuer, label('issuer'));
  const transport = tokenTransport(settings.fetch, settings.fetchOptions);
  const margin = settings.refreshMarginMs ?? defaults.refreshMarginMs;
  const request = tokenRequester(
    { issuer: settings.issuer, tokenUrl },
    grantFields('client_credentials', settings),
    clientAuthenticator(settings, authMethod),
    transport,
    margin,
  );
  return sharedTokenProvider(request, margin, fleetCache(settings, settings.clientId, authMethod));
}

/** How a client-credentials request proves who asks: a secret, a signed assertion or a supplied one. */
function clientAuthenticator(settings: CheckedSettings, authMethod: AuthMethod): RequestProof {
  const { clientId, clientSecret, clientAssertion, issuer } = settings;
  const sign =
    settings.privateKey === undefined
      ? undefined
      : assertionSigner({ ...settings, privateKey: settings.privateKey });
  return async (url) => {
    if (clientAssertion)
      return assertionAuthentication(clientId, await suppliedAssertion(clientAssertion));
    // RFC 7523's audience: the issuer when there is one (what current guidance asks, so that an
    // assertion cannot be replayed at another endpoint of the same server), else the endpoint.
    if (sign) return assertionAuthentication(clientId, await sign(issuer ?? url));
    return secretAuthentication(
      clientId,
      clientSecret as string,
      authMethod as 'client_secret_basic',
    );
  };
}
