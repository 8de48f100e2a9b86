import * as z from 'zod/mini';
import { isPlainObject } from '../internal/json.js';
import { jsonObjectSchema } from '../schemas.js';
import { type ApiKeyFunction, apiKeyProblem, apiKeyRule } from './credential.js';
import type { FetchOptions } from './fetch-options.js';
import { isLogLevel, type Logger, type LogLevel } from './logger.js';
import type { Middleware } from './middleware.js';
import type { RetryBudgetOptions } from './retry-budget.js';
import { customCheck, headerValue, mismatch, nonEmptyString, validate } from './validation.js';

/**
 * Options for one call, the last argument of every method. Each overrides the client's own.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * await client.chat.send(
 *   { projectId: 'proj_123', message: 'Hello' },
 *   { signal: controller.signal, timeout: 10_000, maxRetries: 0 },
 * );
 * ```
 */
export interface RequestOptions {
  /**
   * Ends the call at once: the current attempt or backoff stops and no further attempt starts.
   * The call rejects with `APIUserAbortError`. `null` is the same as none, as frameworks hand out
   * (`request.signal ?? null`).
   * @default none: the call ends only when it succeeds, fails or runs out of retries
   */
  signal?: AbortSignal | null | undefined;
  /**
   * How long one attempt may take, in ms, including reading the response body.
   * @default the client's `timeout` (60 000)
   */
  timeout?: number | undefined;
  /**
   * How long the whole call may take, in ms: every attempt and every wait between them. The call
   * ends with `APITimeoutError` the moment the next wait would pass it.
   * @default the client's `totalTimeout` (none)
   */
  totalTimeout?: number | undefined;
  /**
   * The largest response body to read, in bytes, counted after content decoding. A larger one
   * ends the call with `ResponseTooLargeError`, unretried.
   * @default the client's `maxResponseBytes` (10 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * How many times to retry a failed attempt.
   * @default the client's `maxRetries` (2)
   */
  maxRetries?: number | undefined;
  /**
   * Headers for this call, over the client's `headers`, in any form `fetch` takes (`HeadersInit`):
   * a `Headers` object, an array of `[name, value]` pairs, or an object of names and values. Names
   * are case-insensitive. A name given `null` (or `undefined`) is not sent with this call,
   * whatever the client's `headers` or the SDK's own `user-agent` say. The SDK sets
   * `authorization`, `idempotency-key`, a JSON body's `content-type` and (when none is given)
   * `accept: application/json` after, over these.
   * @default the client's `headers`
   * @example
   * ```ts
   * const client = new Client({ baseUrl: 'https://host/api', headers: { 'x-team': 'support' } });
   * // This call carries x-trace and no x-team.
   * await client.projects.get('proj_123', { headers: { 'x-trace': 'abc', 'X-Team': null } });
   * ```
   */
  headers?:
    | Headers
    | readonly (readonly [name: string, value: string | null | undefined])[]
    // Node's own `HeadersInit` (undici's) types pairs as string[][] and lets a value be a list,
    // sent joined by ", " as fetch does.
    | readonly (readonly string[])[]
    | { readonly [name: string]: string | readonly string[] | null | undefined }
    | undefined;
  /**
   * The `Idempotency-Key` for a POST, sent on every attempt. Reuse one to make a call safe to
   * repeat across process restarts.
   * @default a new UUID per call
   */
  idempotencyKey?: string | undefined;
  /**
   * Middleware for this call, run inside the client's `middleware` around every attempt.
   * @default none: only the client's
   */
  middleware?: readonly Middleware[] | undefined;
  /**
   * Options for `fetch` on this call, over the client's `fetchOptions` (see {@link FetchOptions}):
   * another `dispatcher` for one call, say.
   * @default the client's `fetchOptions`
   * @example
   * ```ts
   * import { Agent } from 'undici';
   *
   * const direct = new Agent();
   * await client.projects.get('proj_123', { fetchOptions: { dispatcher: direct } });
   * ```
   */
  fetchOptions?: FetchOptions | undefined;
}

/**
 * Fields for a call's JSON body beside those the SDK sets from `Params`, which it may not name:
 * a field the service accepts before this SDK knows it. Sent as given, after a check that it is
 * plain JSON.
 *
 * @example
 * ```ts
 * const extra: ExtraBody<ChatSendParams> = { tone: 'formal' };
 * // @ts-expect-error message is set through the params
 * const clash: ExtraBody<ChatSendParams> = { message: 'Hi' };
 * ```
 */
export type ExtraBody<Params> = Record<string, unknown> & {
  readonly [Field in keyof Params]?: never;
};

/**
 * Options for a call whose JSON body the SDK builds from `Params` (`projects.create`,
 * `chat.send`): those of every call, and `extraBody`.
 *
 * @example
 * ```ts
 * // A field the service accepts that this SDK does not know yet.
 * await client.chat.send(
 *   { projectId: 'proj_123', message: 'Hello' },
 *   { extraBody: { tone: 'formal' }, timeout: 10_000 },
 * );
 * ```
 */
export interface BodyRequestOptions<Params> extends RequestOptions {
  /**
   * Fields to add to the JSON body, for one the service accepts before this SDK knows it. The
   * params stay strict; this is the explicit way past them. A field the params name is refused
   * (`RequestValidationError`, nothing sent): set it through the params.
   * @default none
   */
  extraBody?: ExtraBody<Params> | undefined;
}

/**
 * Options for {@link Client}. Every one is optional where an environment variable can supply it.
 *
 * @example
 * ```ts
 * const client = new Client({
 *   apiKey: process.env.AGENTCHAT_API_KEY,
 *   baseUrl: 'https://host/api',
 *   maxRetries: 4,
 *   timeout: 20_000,
 *   headers: { 'x-trace-id': 'checkout-42' },
 *   logLevel: 'debug',
 * });
 * ```
 */
export interface ClientOptions {
  /**
   * The API key, or a function returning it (called before each attempt, so it can hand out a
   * short-lived token such as an OAuth 2.0 access token; {@link clientCredentials} makes one).
   * When the service answers 401 to a token from a function, the function is asked once more,
   * with `{ rejected: token }`, and the call is replayed once with the new token.
   * @default process.env.AGENTCHAT_API_KEY
   * @example
   * ```ts
   * new Client({
   *   apiKey: async () => (await fetch('/token')).text(),
   *   baseUrl: 'https://host/api',
   *   dangerouslyAllowBrowser: true,
   * });
   * ```
   */
  apiKey?: string | ApiKeyFunction | undefined;
  /**
   * The service root that precedes `/v1`, such as `https://host/api`. A trailing slash is fine.
   * @default process.env.AGENTCHAT_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * How many times to retry a failed attempt (connection errors, timeouts, 408, 409, 429, 5xx).
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * The retry budget: one token bucket shared by this client and every client made from it by
   * `withOptions` (unless it sets its own `retryBudget` or `baseUrl`). A retry takes `retryCost`
   * tokens (`timeoutCost` after a timeout or a connection failure); a call that succeeds gives back
   * 1, or what its retries took. When the bucket cannot pay, the call fails at once with its last
   * error, flagged `retryBudgetExhausted`: under an outage a busy client settles at about one
   * attempt per call instead of `maxRetries + 1`. `false` turns it off. See docs/retries.md.
   * @default { capacity: 500, retryCost: 5, timeoutCost: 10 } (`retryDefaults.retryBudget`)
   * @example
   * ```ts
   * // A batch job that would rather retry everything, whatever it costs the service.
   * new Client({ baseUrl: 'https://host/api', retryBudget: false });
   * ```
   */
  retryBudget?: RetryBudgetOptions | false | undefined;
  /**
   * How long one attempt may take, in ms, including reading the response body.
   * @default 60000
   */
  timeout?: number | undefined;
  /**
   * How long a whole call may take, in ms: every attempt and every wait between them. A call ends
   * with `APITimeoutError` the moment the next wait would pass it.
   * @default none: each attempt is bounded by `timeout`, and there are at most `maxRetries` retries
   * @example
   * ```ts
   * // However the service answers, a call is over within 10 s.
   * new Client({ baseUrl: 'https://host/api', timeout: 4_000, totalTimeout: 10_000 });
   * ```
   */
  totalTimeout?: number | undefined;
  /**
   * The largest response body to read, in bytes, counted after content decoding (a small gzip can
   * unpack to gigabytes). A larger one ends the call with `ResponseTooLargeError`, unretried; the
   * rest of it is never read, so memory stays bounded by this limit.
   * @default 10485760 (10 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Headers sent with every call, such as a tracing header: a `Headers` object, an array of
   * `[name, value]` pairs, or an object of names and values, as `fetch` takes them. The client
   * keeps a copy, so a `Headers` object changed afterwards changes nothing. A name given `null`
   * (or `undefined`) is the same as one left out, and also drops the SDK's own header of that name
   * (`user-agent`).
   * @default {}
   */
  headers?: RequestOptions['headers'];
  /**
   * The `fetch` to send with: undici's own, node-fetch, a test double. It is called once per
   * attempt with a URL string and an init of plain values (`method`, `headers` as an object,
   * `body`, `signal`, `redirect`, and `fetchOptions`), never with a `Request`, so a `fetch` of
   * another realm can read them. For a proxy or a CA, `fetchOptions` with the platform's `fetch` is
   * usually all it takes.
   * @default globalThis.fetch, looked up at each request (so test interceptors installed later apply)
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Options merged into the init of every `fetch` the client makes, for what a runtime's `fetch`
   * takes beyond the standard: a proxy or a private CA through undici's `dispatcher` on Node,
   * Deno's `client`, Bun's `proxy` and `tls`. A call's `fetchOptions` go over these. Token
   * requests go where the provider sends them: give a {@link clientCredentials} provider the same
   * `fetchOptions`. See {@link FetchOptions} and docs/networks.md.
   * @default none
   * @example
   * ```ts
   * import { ProxyAgent } from 'undici';
   *
   * new Client({
   *   baseUrl: 'https://host/api',
   *   fetchOptions: { dispatcher: new ProxyAgent(process.env.HTTPS_PROXY ?? '') },
   * });
   * ```
   */
  fetchOptions?: FetchOptions | undefined;
  /**
   * Names the application that uses the SDK in the `User-Agent` (outside browsers, which forbid
   * setting it): `agentchat-js/<version> <name>/<version> (<url>)`, so that the service can tell
   * integrations apart.
   * @default none: `agentchat-js/<version>` alone
   * @example
   * ```ts
   * new Client({
   *   baseUrl: 'https://host/api',
   *   appInfo: { name: 'support-desk', version: '4.1.0', url: 'https://example.com/desk' },
   * });
   * ```
   */
  appInfo?: AppInfo | undefined;
  /**
   * Where log lines go. Secrets are redacted from everything logged.
   * @default globalThis.console
   */
  logger?: Logger | undefined;
  /**
   * How much to log: `debug` logs a line per attempt with method, path, status, attempt and wait;
   * `warn` (the default) only what needs fixing, such as a plain-`http` `baseUrl` to a remote host.
   * @default process.env.AGENTCHAT_LOG, else 'warn'
   */
  logLevel?: LogLevel | undefined;
  /**
   * Functions run around every attempt, in order (the first outermost): to log, trace, add
   * headers or stand in for the service. Each retry is its own attempt. See {@link Middleware}.
   * @default []
   */
  middleware?: readonly Middleware[] | undefined;
  /**
   * Allow construction in a web page or worker, where anyone can read the key. Set it only for
   * short-lived or user-scoped keys, or internal tools; otherwise call the service from a backend.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/**
 * The application named in the `User-Agent` beside the SDK (see {@link ClientOptions.appInfo}).
 *
 * @example
 * ```ts
 * const appInfo: AppInfo = { name: 'support-desk', version: '4.1.0' };
 * new Client({ baseUrl: 'https://host/api', appInfo });
 * ```
 */
export interface AppInfo {
  /**
   * The application's name, a token without spaces or slashes, such as `support-desk`.
   * @default none: required
   */
  readonly name: string;
  /**
   * Its version, such as `4.1.0`.
   * @default none: the name alone
   */
  readonly version?: string | undefined;
  /**
   * Where to read about it, such as its home page; sent in parentheses.
   * @default none
   */
  readonly url?: string | undefined;
}

/** The longest timer a runtime supports (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * A number from `min` (excluded when `integer` is false: a timeout of 0 means nothing) to `max`.
 * One custom check rather than z.number(), z.int(), z.positive(), z.gte() and z.lte(), which would
 * pull zod's number schema, formats and comparison checks into every browser bundle (0.6 KiB
 * min+gzip). A value that is no finite number is told what z.number()'s issue would say.
 */
function numberWithin(min: number, max: number, integer = false) {
  return customCheck<number>((value, problem) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return problem(mismatch('number', value));
    }
    const message =
      integer && !Number.isInteger(value)
        ? mismatch('int', value)
        : (integer ? value < min : value <= min)
          ? `must be ${integer ? 'at least' : 'greater than'} ${min}`
          : value > max
            ? `must be at most ${max}`
            : undefined;
    if (message) problem(message);
  });
}

const timeoutSchema = numberWithin(0, MAX_TIMEOUT_MS);
const maxResponseBytesSchema = numberWithin(0, Number.MAX_SAFE_INTEGER);
const maxRetriesSchema = numberWithin(0, 100, true);
/** What fetch accepts in a header; anything else would fail inside fetch with a bare TypeError. */
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * A URL as written, with no whitespace or control character: the URL parser would drop line breaks
 * and tabs and encode spaces, and so silently address somewhere other than what was written.
 */
export const urlCharacters = /^[!-~\u00a1-\uffff]*$/;
const headerValueMessage =
  'must not contain line breaks, control characters or characters above U+00FF';
/**
 * The `[name, value]` items of headers as given: a plain object's entries, or what an iterable
 * object (a `Headers`, an array of pairs) yields; `undefined` for anything else.
 */
function headerItems(headers: unknown): unknown[] | undefined {
  return isPlainObject(headers)
    ? Object.entries(headers)
    : Object(headers) === headers && Symbol.iterator in (headers as object)
      ? [...(headers as Iterable<unknown>)]
      : undefined;
}

/**
 * Headers in any form {@link RequestOptions.headers} takes, as one new object of lower-case names,
 * with `undefined` for a name given `null` or `undefined`: ky's merge drops such a name from the
 * headers it sends. A copy, so nothing the caller changes afterwards reaches a request. Only for
 * headers that passed {@link headersSchema}.
 */
export function headerRecord(
  headers: RequestOptions['headers'],
): Record<string, string | undefined> {
  return Object.fromEntries(
    ((headerItems(headers) ?? []) as [string, string | string[] | null | undefined][]).map(
      ([name, value]) => [
        name.toLowerCase(),
        value == null ? undefined : [value].flat().join(', '),
      ],
    ),
  );
}

// A custom check rather than z.record, z.array and z.union, which would add 0.6 KiB min+gzip to
// browser bundles (the 25 KiB budget, test/package/bundle.test.ts, has no room for them).
const headersSchema = customCheck<RequestOptions['headers']>((value, problem) => {
  const items = headerItems(value);
  if (!items) {
    return problem('expected a Headers object, an array of [name, value] pairs or an object');
  }
  for (const [index, item] of items.entries()) {
    if (!Array.isArray(item) || item.length !== 2) {
      problem('expected a [name, value] pair', [index]);
      continue;
    }
    const [name, text] = item;
    // null or undefined says "do not send this header".
    if (typeof name !== 'string' || !headerName.test(name)) {
      problem('is not a valid header name', [name]);
    } else {
      const values: unknown[] = text == null ? [] : [text].flat();
      if (!values.every((each) => typeof each === 'string')) problem('expected a string', [name]);
      else if (!values.every((each) => headerValue.test(each))) {
        problem(headerValueMessage, [name]);
      }
    }
  }
});

/** An AbortSignal, or `null` for none. */
const abortSignal = z.custom<AbortSignal | null>(
  (value) =>
    value === null ||
    (typeof (value as AbortSignal | undefined)?.aborted === 'boolean' &&
      typeof (value as AbortSignal).addEventListener === 'function'),
  { message: 'expected an AbortSignal or null' },
);

const middlewareSchema = customCheck<readonly Middleware[]>((value, problem) => {
  if (!Array.isArray(value)) return problem('expected an array');
  value.forEach((item, index) => {
    if (typeof item !== 'function') problem('expected a function', [index]);
  });
});

export const requestOptionsSchema = z.strictObject({
  signal: z.optional(abortSignal),
  timeout: z.optional(timeoutSchema),
  totalTimeout: z.optional(timeoutSchema),
  maxResponseBytes: z.optional(maxResponseBytesSchema),
  maxRetries: z.optional(maxRetriesSchema),
  headers: z.optional(headersSchema),
  // A refinement rather than z.regex, whose string-format check would add 0.15 KiB min+gzip to
  // browser bundles.
  idempotencyKey: z.optional(
    nonEmptyString.check(z.refine((key) => headerValue.test(key), { message: headerValueMessage })),
  ),
  middleware: z.optional(middlewareSchema),
  // Checked by the transport, whose refusal is a ConfigurationError naming the option to use.
  fetchOptions: z.optional(z.custom<FetchOptions>()),
});

/** The options of an operation whose JSON body the SDK builds. */
export const bodyRequestOptionsSchema = z.strictObject({
  ...requestOptionsSchema.def.shape,
  extraBody: z.optional(jsonObjectSchema),
});

/** The largest a retry budget's numbers may be: far past any use, well inside integer arithmetic. */
const MAX_BUDGET = 1_000_000;
const retryBudgetFields = z.strictObject({
  capacity: z.optional(numberWithin(1, MAX_BUDGET, true)),
  retryCost: z.optional(numberWithin(0, MAX_BUDGET, true)),
  timeoutCost: z.optional(numberWithin(0, MAX_BUDGET, true)),
});
/**
 * `false`, or the budget's numbers. A custom check rather than z.union, which would add 0.3 KiB
 * min+gzip to browser bundles; the object's own issues (a misspelt field's "did you mean" among
 * them) are passed on under `retryBudget`.
 */
const retryBudgetSchema = customCheck<RetryBudgetOptions | false>((value, problem) => {
  if (value === false) return;
  if (typeof value !== 'object' || value === null) {
    return problem('expected false or an object of capacity, retryCost and timeoutCost');
  }
  const checked = validate(retryBudgetFields, value);
  if (!checked.ok) for (const issue of checked.issues) problem(issue.message, [issue.path]);
});

/**
 * `appInfo`: each part something the User-Agent carries as it is: the name and version RFC 9110
 * tokens without the `/` between them, the URL without spaces or parentheses.
 */
const appInfoSchema = customCheck<AppInfo>((value, problem) => {
  const token = /^[!#$%&'*+.^_`|~\w-]+$/;
  const parts = isPlainObject(value) ? (value as Record<string, unknown>) : undefined;
  for (const [key, pattern] of [
    ['name', token],
    ['version', token],
    ['url', /^[!-'*-~]+$/],
  ] as const) {
    const part = parts?.[key];
    if (!parts || (part === undefined ? key === 'name' : !pattern.test(String(part)))) {
      return problem(
        'expected { name, version?, url? } without spaces, slashes or parentheses',
        parts ? [key] : [],
      );
    }
  }
});

export const clientOptionsSchema = z.strictObject({
  // One custom check rather than z.union, which would add 0.3 KiB min+gzip to browser bundles.
  apiKey: z.optional(
    customCheck<string | ApiKeyFunction>((value, problem) => {
      const found = typeof value === 'function' ? undefined : apiKeyProblem(value);
      if (found) problem(`expected ${apiKeyRule}, or a function returning one; received ${found}`);
    }),
  ),
  baseUrl: z.optional(z.string()),
  maxRetries: z.optional(maxRetriesSchema),
  retryBudget: z.optional(retryBudgetSchema),
  timeout: z.optional(timeoutSchema),
  totalTimeout: z.optional(timeoutSchema),
  maxResponseBytes: z.optional(maxResponseBytesSchema),
  headers: z.optional(headersSchema),
  fetch: z.optional(
    z.custom<typeof globalThis.fetch>((v) => typeof v === 'function', {
      message: 'expected a function',
    }),
  ),
  // Checked by the client, whose message names the option to use instead (fetch-options.ts).
  fetchOptions: z.optional(z.custom<FetchOptions>()),
  appInfo: z.optional(appInfoSchema),
  logger: z.optional(
    z.custom<Logger>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        ['error', 'warn', 'info', 'debug'].every(
          (level) => typeof (v as unknown as Record<string, unknown>)[level] === 'function',
        ),
      { message: 'expected an object with error, warn, info and debug methods' },
    ),
  ),
  // The logger's own guard rather than z.enum: zod's enum schema alone adds 0.3 KiB min+gzip to a
  // browser bundle, which the 25 KiB budget (test/package/bundle.test.ts) has no room for.
  logLevel: z.optional(
    z.custom<LogLevel>(isLogLevel, {
      message: "expected 'off', 'error', 'warn', 'info' or 'debug'",
    }),
  ),
  middleware: z.optional(middlewareSchema),
  dangerouslyAllowBrowser: z.optional(
    z.custom<boolean>((v) => typeof v === 'boolean', { message: 'expected a boolean' }),
  ),
});
