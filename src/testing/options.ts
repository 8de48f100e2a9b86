import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closest } from '../internal/closest.js';
import { fromAlias } from '../internal/deprecated.js';
import type { MockAgent } from './agent.js';
import { assertMilliseconds } from './http/wait.js';
import { type TrustedIssuer, trustedIssuersOf } from './identity/trusted-issuers.js';
import type { OAuthClient } from './store/oauth-clients.js';
import { type ProjectSeed, seedProjects } from './store/seeds.js';

/**
 * Options of {@link createMockService}.
 *
 * @example
 * ```ts
 * const mock = createMockService({
 *   baseUrl: 'https://agentchat.test/api',
 *   apiKeys: ['sk_test'],
 *   oauthClients: [{ clientId: 'reporting', clientSecret: 's3cret' }],
 *   projects: [{ id: 'proj_support', name: 'Support', agentId: 'agent_support' }],
 * });
 * ```
 */
export interface MockServiceOptions {
  /**
   * Service root that precedes `/v1`; a trailing slash is tolerated.
   *
   * @default 'https://agentchat.test/api'
   */
  baseUrl?: string;
  /**
   * API keys the mock accepts in `Authorization: Bearer <key>`. An empty list accepts none.
   * Access tokens from the token endpoint are accepted besides them.
   *
   * @default any non-empty key
   */
  apiKeys?: readonly string[];
  /**
   * OAuth 2.0 clients the token endpoint `POST {baseUrl}/oauth/token` accepts. An empty list
   * accepts none.
   *
   * @default any client id with a non-empty secret
   */
  oauthClients?: readonly OAuthClient[];
  /**
   * Issuers of workload identity tokens (GitHub Actions, a Kubernetes cluster, a cloud, or the
   * local issuer of {@link createLocalIssuer}) whose tokens the token endpoint takes as a grant:
   * RFC 7523's jwt-bearer (`assertion`) and RFC 8693's token exchange (`subject_token`), as
   * `workloadIdentity()` sends them. Each is an issuer URL, whose keys are found by its discovery
   * document, or `{ issuer, jwksUri }`. A token is taken when it is signed by its issuer's key
   * with an asymmetric algorithm, names the mock's token URL (or `audience`) in `aud`, and has
   * not expired; any other is `invalid_grant`, its description naming the check it failed.
   *
   * @default none: the token endpoint takes client credentials only
   * @example
   * ```ts
   * const issuer = await createLocalIssuer();
   * const mock = createMockService({ trustedIssuers: [issuer.issuer] });
   * ```
   */
  trustedIssuers?: readonly (string | TrustedIssuer)[];
  /**
   * An `aud` the identity tokens of `trustedIssuers` may carry besides the mock's token URL,
   * `{baseUrl}/oauth/token`: the audience a platform is configured to put in them (GitHub's
   * `audience` input, a Kubernetes projected token's `audience`).
   *
   * @default the token URL only
   * @example
   * ```ts
   * createMockService({ trustedIssuers: ['https://token.actions.githubusercontent.com'], audience: 'agentchat' });
   * ```
   */
  audience?: string;
  /**
   * Lifetime of the access tokens the token endpoint issues, in whole milliseconds (> 0). The
   * token answer's `expires_in` is in whole seconds, as OAuth has it: the lifetime rounded up,
   * so a 1500 ms token says `expires_in: 2` and is refused from 1.5 s on, like a server whose
   * clock runs ahead of the client's.
   *
   * @default 3600000 (an hour)
   * @example
   * ```ts
   * createMockService({ tokenLifetimeMs: 2_000 }); // tokens a test sees expire
   * ```
   */
  tokenLifetimeMs?: number;
  /**
   * Lifetime of the access tokens the token endpoint issues, in whole seconds.
   *
   * @deprecated Use `tokenLifetimeMs` (milliseconds, like every other duration of the SDK):
   * `tokenLifetimeSeconds: 60` is `tokenLifetimeMs: 60_000`. Kept until 2.0; giving both is an
   * error.
   * @default 3600
   */
  tokenLifetimeSeconds?: number;
  /**
   * Origins allowed to call the mock from a browser page (CORS), such as
   * `http://localhost:5173`: the option's name in `createMcpHttpHandler` too.
   *
   * @default any origin
   * @example
   * ```ts
   * createMockService({ allowedOrigins: ['http://localhost:5173'] });
   * ```
   */
  allowedOrigins?: readonly string[];
  /**
   * Origins allowed to call the mock from a browser page (CORS).
   *
   * @deprecated Use `allowedOrigins`, the same list under the name the MCP server uses. Kept
   * until 2.0; giving both is an error.
   * @default any origin
   */
  corsOrigins?: readonly string[];
  /**
   * Latency added to every response, in milliseconds. {@link MockService.setLatency} changes it
   * later; {@link MockService.reset} restores this value.
   *
   * @default 0
   */
  latencyMs?: number;
  /**
   * Projects the store holds from the start, and again after each {@link MockService.reset}:
   * fixtures a test need not create through the API. Checked at once: a seed off the service's
   * shape throws a ConfigurationError naming the seed and the field.
   *
   * @default none
   * @example
   * ```ts
   * createMockService({ projects: [{ id: 'proj_support', name: 'Support', agentId: 'agent_support' }] });
   * ```
   */
  projects?: readonly ProjectSeed[];
  /**
   * Answers chat messages in place of the built-in agent, whose replies name the agent and
   * quote the message (its first 1,000 characters). A reply that is not a chat reply is
   * answered as a 500 that says why.
   *
   * @default the built-in agent
   * @example
   * ```ts
   * createMockService({ agent: ({ message }) => ({ message: `You said ${message}`, suggestions: [] }) });
   * ```
   */
  agent?: MockAgent;
  /**
   * The largest request body taken, in bytes. A larger one is answered 413 before anything else
   * (fault, latency, key check), and read no further than this: a `Content-Length` over it is
   * refused unread, a body without one is cut where it passes it.
   *
   * @default 4194304 (4 MiB)
   * @example
   * ```ts
   * createMockService({ maxRequestBytes: 64 * 1024 });
   * ```
   */
  maxRequestBytes?: number;
  /**
   * How many requests {@link MockService.requestLog} keeps: the latest, older ones dropped as new
   * ones come, so that a mock running for hours does not grow. Each keeps its body up to 16 KiB
   * (a longer one is cut and marked `bodyTruncated`).
   *
   * @default 1000
   * @example
   * ```ts
   * createMockService({ requestLogLimit: 10_000 });
   * ```
   */
  requestLogLimit?: number;
}

/** Every option of {@link MockServiceOptions}, for refusing the others. */
export const SERVICE_OPTION_NAMES = [
  'baseUrl',
  'apiKeys',
  'oauthClients',
  'trustedIssuers',
  'audience',
  'tokenLifetimeMs',
  'tokenLifetimeSeconds',
  'allowedOrigins',
  'corsOrigins',
  'latencyMs',
  'projects',
  'agent',
  'maxRequestBytes',
  'requestLogLimit',
] as const satisfies readonly (keyof MockServiceOptions)[];

/**
 * What the mock tells its host beyond its answers; for the `agentchat-mock` command, not part of
 * the public options.
 */
export interface MockHooks {
  /** A request came from a browser origin the CORS rules do not allow. */
  onCorsRefusal?(origin: string): void;
}

/** Defaults of {@link MockServiceOptions}, in one place. */
export const SERVICE_DEFAULTS = {
  baseUrl: 'https://agentchat.test/api',
  /** An hour, written out. */
  tokenLifetimeMs: 3_600_000,
  latencyMs: 0,
  /** 4 MiB: far above any request of the service (a chat message), far below what hurts. */
  maxRequestBytes: 4_194_304,
  requestLogLimit: 1000,
} as const;

/** Where the mock serves: its base URL split into what routing needs. */
export interface ServiceBase {
  /** Origin and base path, without a trailing slash. */
  url: string;
  /** The path after the base path, e.g. `/v1/projects` for `/api/v1/projects`; `undefined` outside. */
  pathBelow(path: string): string | undefined;
}

/**
 * Checks every option at once, so a mistake throws from `createMockService` rather than
 * surfacing as a confusing answer mid-test.
 *
 * @throws ConfigurationError for an unknown option, a `baseUrl` that is not an absolute URL, a list
 * that is not an array of strings, a project seed off the service's shape, an `agent` that is not
 * a function, a negative latency, or a token lifetime, body limit or log limit that is not a
 * positive whole number.
 * @example
 * ```ts
 * const { base } = checkServiceOptions({ baseUrl: 'https://x.test/api/' });
 * base.url; // 'https://x.test/api'
 * ```
 */
export function checkServiceOptions(options: MockServiceOptions) {
  assertKnownOptions(options, SERVICE_OPTION_NAMES, 'createMockService');
  if (options.agent !== undefined && typeof options.agent !== 'function') {
    throw new ConfigurationError(`agent must be a function, got ${typeof options.agent}`);
  }
  const latencyMs = options.latencyMs ?? SERVICE_DEFAULTS.latencyMs;
  assertMilliseconds(latencyMs, 'latencyMs');
  const lifetime = aliased(options, 'tokenLifetimeMs', 'tokenLifetimeSeconds');
  const tokenLifetimeMs =
    lifetime.name === 'tokenLifetimeSeconds'
      ? positiveWhole(lifetime.value as number, 'tokenLifetimeSeconds', 'seconds') * 1000
      : positiveWhole(
          (lifetime.value as number | undefined) ?? SERVICE_DEFAULTS.tokenLifetimeMs,
          'tokenLifetimeMs',
          'milliseconds',
        );
  const maxRequestBytes = positiveWhole(
    options.maxRequestBytes ?? SERVICE_DEFAULTS.maxRequestBytes,
    'maxRequestBytes',
    'bytes',
  );
  const requestLogLimit = positiveWhole(
    options.requestLogLimit ?? SERVICE_DEFAULTS.requestLogLimit,
    'requestLogLimit',
    'requests',
  );
  for (const name of ['apiKeys', 'oauthClients', 'allowedOrigins', 'corsOrigins'] as const) {
    if (options[name] !== undefined && !Array.isArray(options[name])) {
      throw new ConfigurationError(`${name} must be an array, got ${typeof options[name]}`);
    }
  }
  if (options.apiKeys?.some((key) => typeof key !== 'string')) {
    throw new ConfigurationError('apiKeys must be an array of strings');
  }
  const origins = aliased(options, 'allowedOrigins', 'corsOrigins');
  if (
    options.audience !== undefined &&
    (typeof options.audience !== 'string' || options.audience === '')
  ) {
    throw new ConfigurationError(
      `audience must be a non-empty string, got ${JSON.stringify(options.audience)}`,
    );
  }
  return {
    trustedIssuers:
      options.trustedIssuers === undefined ? undefined : trustedIssuersOf(options.trustedIssuers),
    audience: options.audience,
    base: parseBaseUrl(options.baseUrl ?? SERVICE_DEFAULTS.baseUrl),
    latencyMs,
    tokenLifetimeMs,
    /** The allowed origins, and the option's name as given, for messages. */
    allowedOrigins: origins.value as readonly string[] | undefined,
    allowedOriginsName: origins.name,
    maxRequestBytes,
    requestLogLimit,
    projects: seedProjects(options.projects),
  };
}

/**
 * The value of an option that has a deprecated alias, and the name it was given under: the old
 * name warns once, and both at once are refused, since which one was meant cannot be known.
 *
 * @throws ConfigurationError such as `give allowedOrigins or corsOrigins (its deprecated alias), not both`
 * @example
 * ```ts
 * aliased({ corsOrigins: ['http://a.test'] }, 'allowedOrigins', 'corsOrigins');
 * // { value: ['http://a.test'], name: 'corsOrigins' }, and a one-time warning
 * ```
 */
export function aliased<O extends object>(
  options: O,
  name: keyof O & string,
  oldName: keyof O & string,
): { value: O[keyof O] | undefined; name: string } {
  return fromAlias(
    options[name],
    options[oldName],
    { name, oldName, label: `the mock's option ${oldName}` },
    (message) => new ConfigurationError(message),
  );
}

/**
 * `value` when it is a whole number above 0, else a ConfigurationError naming the option.
 *
 * @throws ConfigurationError such as `maxRequestBytes must be a whole number of bytes > 0, got -1`
 * @example
 * ```ts
 * positiveWhole(30_000, 'requestTimeoutMs', 'milliseconds'); // 30000
 * ```
 */
export function positiveWhole(value: number, name: string, unit: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(`${name} must be a whole number of ${unit} > 0, got ${value}`);
  }
  return value;
}

/**
 * Refuses an option the function does not take (or a field an object does not have), which would
 * otherwise be silently ignored, and suggests the one probably meant.
 *
 * @throws ConfigurationError such as `createMockService has no option "project"; did you mean "projects"?`
 * @example
 * ```ts
 * assertKnownOptions({ ports: 4010 }, ['port', 'host'], 'startMockServer');
 * assertKnownOptions(seed, ['name', 'agentId'], 'projects[0]', 'field');
 * ```
 */
export function assertKnownOptions(
  options: object,
  known: readonly string[],
  owner: string,
  noun = 'option',
): void {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(
      `${owner} takes an options object, got ${options === null ? 'null' : typeof options}`,
    );
  }
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const meant = closest(name, known);
    throw new ConfigurationError(
      `${owner} has no ${noun} ${JSON.stringify(name)}; ${
        meant ? `did you mean ${JSON.stringify(meant)}?` : `its ${noun}s are ${known.join(', ')}`
      }`,
    );
  }
}

/**
 * Validates `baseUrl` and splits it into what routing needs. Trailing slashes are dropped, so
 * `${baseUrl}/v1` never has two.
 */
function parseBaseUrl(baseUrl: string): ServiceBase {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) {
    throw new ConfigurationError(`baseUrl must be an absolute URL, got ${JSON.stringify(baseUrl)}`);
  }
  const { origin, pathname } = new URL(baseUrl);
  const basePath = pathname.replace(/\/+$/, '');
  return { url: origin + basePath, pathBelow: (path) => pathBelow(basePath, path) };
}

/**
 * The part of `path` after `basePath` (`/v1/projects` for `/api/v1/projects` below `/api`), or
 * `undefined` when `path` is not below it: `/apix` is not below `/api`.
 *
 * @example
 * ```ts
 * pathBelow('/api', '/api/v1/projects'); // '/v1/projects'
 * pathBelow('/api', '/apix');            // undefined
 * ```
 */
export function pathBelow(basePath: string, path: string): string | undefined {
  return path === basePath || path.startsWith(`${basePath}/`)
    ? path.slice(basePath.length)
    : undefined;
}
