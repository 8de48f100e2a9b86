/**
 * How each attempt is authorised: the Authorization header it carries, and the secrets that must
 * never come back in an error. The client's is a bearer token from `apiKey`; the OAuth token
 * request's is the client's id and secret.
 */

import { describeValue } from '../internal/json.js';
import { AgentChatError } from './errors/index.js';
import type { Log } from './logger.js';
import { headerValue } from './validation.js';

/**
 * What a token function is told when it is called. On the one replay after a 401, `rejected` is
 * the token the service refused, so that a caching provider knows to fetch a new one.
 *
 * @example
 * ```ts
 * let cached: string | undefined;
 * const apiKey = async ({ rejected }: ApiKeyContext): Promise<string> => {
 *   if (cached === undefined || cached === rejected) {
 *     cached = await (await fetch('/api/agentchat-token')).text();
 *   }
 *   return cached;
 * };
 * const client = new Client({ apiKey, baseUrl: 'https://host/api' });
 * ```
 */
export interface ApiKeyContext {
  /** The token the service answered 401 to, on the replay that follows; otherwise absent. */
  readonly rejected?: string;
  /**
   * Writes a line at `warn` level through the client's logger, secrets redacted (and dropped when
   * `logLevel` is below `warn`); absent when logging is off. A failing token cache warns this way.
   */
  readonly warn?: (message: string) => void;
  /**
   * The client's `User-Agent` (`agentchat-js/<version>`, then its `appInfo`), for the requests the
   * function makes on the client's behalf: `clientCredentials()` and `workloadIdentity()` send it
   * to the token endpoint and discovery. Absent in a browser, which sets its own.
   */
  readonly userAgent?: string;
}

/**
 * A function that hands out the bearer token, called before every attempt: an OAuth 2.0 access
 * token, or a short-lived key fetched from your backend. {@link clientCredentials} makes one.
 *
 * @example
 * ```ts
 * const apiKey: ApiKeyFunction = async () => (await fetch('/api/agentchat-token')).text();
 * ```
 */
export type ApiKeyFunction = (context: ApiKeyContext) => string | Promise<string>;

/** The Authorization of one attempt. */
export interface Authorization {
  /** The header's value, or `undefined` to send none. */
  readonly header: string | undefined;
  /** The bearer token, which a 401 may reject. */
  readonly token?: string;
  /** Values a server might echo back, which must never reach an error. */
  readonly secrets: readonly string[];
}

/**
 * Where each attempt's Authorization comes from: `fixed`, the same on every attempt (a key given
 * as a string, a client's id and secret), or `renew`, asked before every attempt (a token
 * function), in which case a call the service answers 401 is replayed once with a fresh one.
 */
export type Credential =
  | { readonly fixed: Authorization }
  | { readonly renew: (context: ApiKeyContext) => Promise<Authorization> };

/**
 * A credential sending `Authorization: Bearer <key>`, the key given or handed out by a function,
 * which may warn through `log` and is told the client's `userAgent`.
 */
export function bearerCredential(
  apiKey: string | ApiKeyFunction,
  log?: Log,
  userAgent?: string,
): Credential {
  if (typeof apiKey === 'string') {
    return { fixed: bearer(apiKey) };
  }
  // What the client tells its key function beside each attempt's own context: each field absent
  // when the client has none (no logger; in a browser, no User-Agent of its own).
  const told: ApiKeyContext = {
    ...(log && { warn: (message: string) => log('warn', message) }),
    ...(userAgent && { userAgent }),
  };
  return {
    renew: async (context) => bearer(await callApiKey(apiKey, { ...context, ...told })),
  };
}

/** A token sent as `Authorization: Bearer <token>`, and kept out of what errors show. */
function bearer(token: string): Authorization {
  return { header: `Bearer ${token}`, token, secrets: [token] };
}

async function callApiKey(apiKey: ApiKeyFunction, context: ApiKeyContext): Promise<string> {
  let key: unknown;
  try {
    key = await apiKey(context);
  } catch (error) {
    // An SDK error (a refused or unreachable token endpoint) already says what happened.
    if (error instanceof AgentChatError) throw error;
    throw new AgentChatError('The apiKey function failed, so nothing was sent', { cause: error });
  }
  const problem = apiKeyProblem(key);
  if (problem) {
    // The user's own function is the culprit here: a token from clientCredentials was checked
    // when its endpoint answered it, and a bad one is an OAuthError naming the endpoint.
    throw new AgentChatError(
      `The apiKey function returned ${problem}: it must return ${apiKeyRule}; nothing was sent`,
    );
  }
  return key as string;
}

/** What an API key must be, in the words of both refusals: the `apiKey` option's and a function's. */
export const apiKeyRule =
  'a non-empty string without surrounding whitespace, line breaks, control characters or characters above U+00FF';

/**
 * What is wrong with an API key, the `apiKey` option or what a function returned, never quoting
 * it; `undefined` if nothing.
 */
export function apiKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return describeValue(key);
  if (key === '') return 'an empty string';
  if (key.trim() !== key) return 'a string with whitespace at its start or end';
  if (headerValue.test(key)) return undefined;
  let at = 0;
  while (headerValue.test(key.charAt(at))) at++;
  const code = (key.codePointAt(at) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `a string whose character ${at + 1} is U+${code}, which a header cannot carry`;
}
