/**
 * `fetchOptions`: what a runtime's `fetch` takes beyond the standard (undici's `dispatcher`,
 * Deno's `client`, Bun's `proxy` and `tls`), merged into the init of every fetch the SDK makes:
 * the service's calls, token requests, issuer discovery, and agentchat/mcp's outbound fetches.
 * One function merges them, so every one of those fetches reads the options the same way. No ky,
 * no zod: agentchat/mcp's build takes this file as it is.
 */

/**
 * Options handed to `fetch` with every request the SDK makes, for what a runtime's `fetch` takes
 * beyond the standard: on Node, undici's `dispatcher` (a `ProxyAgent`, an `EnvHttpProxyAgent`, an
 * `Agent` with `connect: { ca, cert, key }`), on Deno a `client` from `Deno.createHttpClient`, on
 * Bun `proxy` and `tls`. The SDK owns `method`, `body`, `headers`, `signal` and `redirect`: giving
 * one here is a `ConfigurationError` naming the option to use instead. See docs/networks.md.
 *
 * @example
 * ```ts
 * import { ProxyAgent } from 'undici';
 *
 * const client = new Client({
 *   baseUrl: 'https://host/api',
 *   fetchOptions: { dispatcher: new ProxyAgent('http://proxy.internal:3128') },
 * });
 * ```
 */
export interface FetchOptions {
  /**
   * Node: the undici dispatcher the request goes through, from an undici Node's `fetch` accepts.
   * @default Node's global dispatcher
   */
  readonly dispatcher?: unknown;
  /**
   * Deno: an HTTP client from `Deno.createHttpClient` (a proxy, a CA, a client certificate).
   * @default Deno's own client
   */
  readonly client?: unknown;
  /**
   * Bun: the proxy's URL.
   * @default `HTTPS_PROXY` / `HTTP_PROXY`, which Bun reads itself
   */
  readonly proxy?: unknown;
  /**
   * Bun: TLS settings (`ca`, `cert`, `key`).
   * @default Bun's own
   */
  readonly tls?: unknown;
  /**
   * Set by the SDK; refused here.
   * @default the operation's
   */
  readonly method?: never;
  /**
   * Set by the SDK from the params; refused here.
   * @default the operation's
   */
  readonly body?: never;
  /**
   * Set by the SDK; refused here (use the `headers` option).
   * @default the SDK's and the `headers` option's
   */
  readonly headers?: never;
  /**
   * Set by the SDK; refused here (use a call's `signal` option).
   * @default the SDK's, which the call's `signal` and timeouts end
   */
  readonly signal?: never;
  /**
   * Set by the SDK; refused here: redirects are never followed.
   * @default 'manual'
   */
  readonly redirect?: never;
  /** Any other option the runtime's `fetch` reads. */
  readonly [option: string]: unknown;
}

/** The init keys the SDK sets on every fetch, and what to use instead of each. */
const OWNED: Readonly<Record<string, string>> = {
  method: 'set by the SDK',
  body: 'set by the SDK (use extraBody)',
  headers: 'use the headers option',
  signal: "use a call's signal option",
  redirect: 'redirects are never followed',
};

/**
 * What is wrong with a `fetchOptions` value, worded for a `ConfigurationError`; `undefined` when
 * it is fine (a plain object without a key the SDK owns).
 *
 * @example
 * ```ts
 * fetchOptionsProblem({ headers: {} });
 * // 'fetchOptions.headers: use the headers option'
 * ```
 */
export function fetchOptionsProblem(value: unknown, name = 'fetchOptions'): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${name}: expected an object, such as { dispatcher }`;
  }
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(OWNED, key)) return `${name}.${key}: ${OWNED[key]}`;
  }
  return undefined;
}

/**
 * The init one fetch is called with: the client's `fetchOptions`, then the call's over them, then
 * `init` (what the SDK sets) over both. `init` itself when there are none, so that a client without
 * `fetchOptions` pays nothing per request.
 *
 * @example
 * ```ts
 * withFetchOptions({ method: 'GET' }, { dispatcher }, undefined);
 * // { dispatcher, method: 'GET' }
 * ```
 */
export function withFetchOptions(
  init: RequestInit,
  client: FetchOptions | undefined,
  call?: FetchOptions | undefined,
): RequestInit {
  if (client === undefined && call === undefined) return init;
  return { ...client, ...call, ...init };
}
