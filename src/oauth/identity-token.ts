/**
 * What workload identity federation is given to trade for an access token: an identity token,
 * from a source called once per token request. The sources (a file, GitHub Actions, Google's
 * metadata server) are each a file named after the platform; this one holds what they share: the
 * source's type, the check that a token is a JWT, and the one bounded GET the HTTP sources send.
 */
import { OAuthError } from '../core/errors/index.js';
import { type FetchOptions, withFetchOptions } from '../core/fetch-options.js';
import { readCappedBody } from '../internal/capped-body.js';
import { userAgent } from '../internal/platform.js';
import { MAX_TOKEN_RESPONSE_BYTES } from './access-token.js';

/**
 * What a provider hands its identity source at each call: the `fetch` and `fetchOptions` the
 * provider's own requests go through, so that a source asking its platform over HTTP goes the same
 * way (a proxy, a private CA).
 *
 * @example
 * ```ts
 * const source: IdentityTokenSource = async ({ fetch = globalThis.fetch }) => {
 *   const response = await fetch('http://127.0.0.1:8080/token');
 *   return response.text();
 * };
 * ```
 */
export interface IdentityTokenContext {
  /** The provider's `fetch`, when one was given; else the platform's own. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** The provider's `fetchOptions`, to merge into the init of the source's own fetches. */
  readonly fetchOptions?: FetchOptions | undefined;
}

/**
 * A source of the platform's identity token (a signed JWT naming the workload), given as
 * `identityToken` to {@link workloadIdentity}: called once per token request, so that it answers a
 * fresh token each time. The SDK's sources are {@link identityTokenFile},
 * {@link githubActionsIdentityToken} and {@link googleIdentityToken}; any function answering the
 * token will do. The token is a secret: a source's own error must not quote it.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 *
 * const fromVault: IdentityTokenSource = () => readFile('/vault/secrets/identity-token', 'utf8');
 * ```
 */
export type IdentityTokenSource = (context: IdentityTokenContext) => string | Promise<string>;

/** base64url, as each of a JWS's three parts is written (RFC 7515 section 7.1). */
const base64url = /^[\w-]+$/;

/**
 * Why `token` cannot be a JWT in its compact form, in words that never quote it; `undefined` when
 * it can: three base64url parts, the first a JSON object naming its `alg`.
 *
 * @example
 * ```ts
 * identityTokenProblem('not-a-jwt'); // 'it has 1 part, not the 3 of a signed JWT'
 * ```
 */
export function identityTokenProblem(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) {
    return `it has ${parts.length} part${parts.length === 1 ? '' : 's'}, not the 3 of a signed JWT`;
  }
  if (!parts.every((part) => base64url.test(part))) {
    return 'it holds characters outside base64url, which a JWT does not';
  }
  let header: unknown;
  try {
    const text = atob((parts[0] as string).replace(/-/g, '+').replace(/_/g, '/'));
    header = JSON.parse(text);
  } catch {
    return 'its header is not base64url-encoded JSON';
  }
  if (
    typeof header !== 'object' ||
    header === null ||
    typeof (header as { alg?: unknown }).alg !== 'string'
  ) {
    return 'its header names no alg';
  }
  return undefined;
}

/** What a platform's token endpoint is asked, and what to tell the user when it fails. */
export interface PlatformRequest {
  /** The platform's name for messages, such as `GitHub Actions`. */
  readonly platform: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** What to check or set on the platform when it answers `status` (0: it could not be reached). */
  readonly hint: (status: number) => string;
}

/**
 * How long a platform's token endpoint may take, in ms: these are local services (a runner's
 * agent, the metadata server) that answer in milliseconds; past this one is not there.
 */
const PLATFORM_TIMEOUT_MS = 10_000;

/**
 * GETs a platform's identity token endpoint through the provider's `fetch` and `fetchOptions`, and
 * answers the body's text: no redirect followed, the answer bounded in time and size, every
 * failure an {@link OAuthError} naming the platform's setting to check (the `hint`), never quoting
 * the body or a header's value.
 */
export async function requestFromPlatform(
  request: PlatformRequest,
  context: IdentityTokenContext,
): Promise<{ readonly text: string; readonly headers: Headers }> {
  const where = `${request.url.origin}${request.url.pathname}`;
  const fail = (status: number, what: string) =>
    new OAuthError({
      status,
      problem: `${request.platform}: ${what} from ${where}; ${request.hint(status)}`,
    });
  const agent = userAgent();
  const fetch = context.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    const init: RequestInit = {
      method: 'GET',
      headers: agent ? { ...request.headers, 'user-agent': agent } : request.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(PLATFORM_TIMEOUT_MS),
    };
    response = await fetch(request.url.href, withFetchOptions(init, context.fetchOptions));
  } catch (error) {
    throw fail(0, `no identity token could be asked for (${failureName(error)})`);
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => {});
    throw fail(
      response.status,
      `the identity token request was refused with status ${response.status}`,
    );
  }
  let body: Uint8Array | undefined;
  try {
    body = await readCappedBody(response, MAX_TOKEN_RESPONSE_BYTES);
  } catch (error) {
    throw fail(response.status, `the identity token could not be read (${failureName(error)})`);
  }
  if (body === undefined) {
    throw fail(response.status, `an answer over ${MAX_TOKEN_RESPONSE_BYTES} bytes came`);
  }
  return { text: new TextDecoder().decode(body), headers: response.headers };
}

/** A failure's kind (`TimeoutError`, `ECONNREFUSED`), never its message, which may quote a URL's secrets. */
function failureName(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : typeof error;
}
