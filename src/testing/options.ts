import { assertMilliseconds } from './http/wait.js';
import type { OAuthClient } from './store/oauth-clients.js';

/**
 * Options of {@link createMockService}.
 *
 * @example
 * ```ts
 * const mock = createMockService({
 *   baseUrl: 'https://agentchat.test/api',
 *   apiKeys: ['sk_test'],
 *   oauthClients: [{ clientId: 'reporting', clientSecret: 's3cret' }],
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
   * Lifetime of the access tokens the token endpoint issues, in whole seconds.
   *
   * @default 3600
   */
  tokenLifetimeSeconds?: number;
  /**
   * Origins allowed to call the mock from a browser page (CORS), such as
   * `http://localhost:5173`.
   *
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
}

/** Defaults of {@link MockServiceOptions}, in one place. */
export const SERVICE_DEFAULTS = {
  baseUrl: 'https://agentchat.test/api',
  tokenLifetimeSeconds: 3600,
  latencyMs: 0,
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
 * @throws TypeError for a `baseUrl` that is not an absolute URL or a list that is not an array
 * of strings, RangeError for a negative latency or a token lifetime that is not a positive
 * integer.
 * @example
 * ```ts
 * const { base } = checkServiceOptions({ baseUrl: 'https://x.test/api/' });
 * base.url; // 'https://x.test/api'
 * ```
 */
export function checkServiceOptions(options: MockServiceOptions) {
  const latencyMs = options.latencyMs ?? SERVICE_DEFAULTS.latencyMs;
  assertMilliseconds(latencyMs, 'latencyMs');
  const tokenLifetimeSeconds =
    options.tokenLifetimeSeconds ?? SERVICE_DEFAULTS.tokenLifetimeSeconds;
  if (!Number.isSafeInteger(tokenLifetimeSeconds) || tokenLifetimeSeconds <= 0) {
    throw new RangeError(
      `tokenLifetimeSeconds must be a whole number of seconds > 0, got ${tokenLifetimeSeconds}`,
    );
  }
  for (const name of ['apiKeys', 'oauthClients', 'corsOrigins'] as const) {
    if (options[name] !== undefined && !Array.isArray(options[name])) {
      throw new TypeError(`${name} must be an array, got ${typeof options[name]}`);
    }
  }
  if (options.apiKeys?.some((key) => typeof key !== 'string')) {
    throw new TypeError('apiKeys must be an array of strings');
  }
  return {
    base: parseBaseUrl(options.baseUrl ?? SERVICE_DEFAULTS.baseUrl),
    latencyMs,
    tokenLifetimeSeconds,
  };
}

/**
 * Validates `baseUrl` and splits it into what routing needs. Trailing slashes are dropped, so
 * `${baseUrl}/v1` never has two.
 */
function parseBaseUrl(baseUrl: string): ServiceBase {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) {
    throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(baseUrl)}`);
  }
  const { origin, pathname } = new URL(baseUrl);
  const basePath = pathname.replace(/\/+$/, '');
  return {
    url: origin + basePath,
    pathBelow: (path) =>
      path === basePath || path.startsWith(`${basePath}/`)
        ? path.slice(basePath.length)
        : undefined,
  };
}
