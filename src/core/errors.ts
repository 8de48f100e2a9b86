/**
 * Every error this package throws. All extend {@link AgentChatError}.
 *
 * `instanceof` works by brand, not by prototype identity, so it holds when the ESM and CJS builds
 * (or two copies of the package) are loaded in one process.
 */

const KINDS = Symbol.for('agentchat.error.kinds');

/**
 * One problem found in a request's input or a response's body.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: '' });
 * } catch (error) {
 *   if (error instanceof RequestValidationError) {
 *     for (const issue of error.issues) console.error(`${issue.path}: ${issue.message}`);
 *     // message: must not be empty
 *   }
 * }
 * ```
 */
export interface ValidationIssue {
  /** Where the problem is, as a dotted path such as `metadata.tags.0` (`''` for the whole value). */
  readonly path: string;
  /** What is wrong there, such as `expected a non-empty string`. */
  readonly message: string;
}

/**
 * Method and path of the call an error belongs to, for messages that say what failed.
 *
 * @example
 * ```ts
 * // Build the error a call would throw, to test how your own code handles it.
 * const call: CallSite = { method: 'GET', path: '/v1/projects/proj_123' };
 * const error = new NotFoundError(call, { status: 404, headers: new Headers(), body: undefined });
 * console.log(error.message); // GET /v1/projects/proj_123 failed with status 404
 * ```
 */
export interface CallSite {
  /** The HTTP method, such as `POST`. */
  readonly method: string;
  /** The request path below `baseUrl`, such as `/v1/projects/proj_123/chat`. */
  readonly path: string;
}

type ErrorClass = { readonly errorName: string; prototype: object };

/**
 * The base of every error from `agentchat`, and the error for invalid configuration
 * (a missing API key or base URL, a browser without `dangerouslyAllowBrowser`).
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof AgentChatError) console.error(error.name, error.message);
 * }
 * ```
 */
export class AgentChatError extends Error {
  /** The stable name of this class; survives minification, unlike `constructor.name`. */
  static readonly errorName: string = 'AgentChatError';

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    const kinds: string[] = [];
    for (let c = new.target as unknown as ErrorClass; c && 'errorName' in c; ) {
      if (Object.hasOwn(c, 'errorName')) kinds.push(c.errorName);
      c = Object.getPrototypeOf(c);
    }
    Object.defineProperty(this, KINDS, { value: kinds });
    this.name = kinds[0] ?? 'AgentChatError';
  }

  /** Brand check: true for errors of this class from any copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // A user's own subclass has no brand of its own; judge it by its prototype chain.
    if (!Object.hasOwn(this, 'errorName'))
      return Function.prototype[Symbol.hasInstance].call(this, value);
    const kinds =
      typeof value === 'object' && value !== null ? Reflect.get(value, KINDS) : undefined;
    return Array.isArray(kinds) && kinds.includes((this as unknown as ErrorClass).errorName);
  }

  /** A plain object of the error's name, message and public fields, for structured logs. */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'headers' && key !== 'cause') json[key] = value;
    }
    return json;
  }
}

/**
 * Input failed validation before anything was sent. `issues` lists every offending field.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.create({ name: '', agentId: 'agent_42' });
 * } catch (error) {
 *   if (error instanceof RequestValidationError) console.error(error.issues);
 *   // [{ path: 'name', message: 'must not be empty' }]
 * }
 * ```
 */
export class RequestValidationError extends AgentChatError {
  static override readonly errorName: string = 'RequestValidationError';
  /** Every problem found, one per offending field. */
  readonly issues: readonly ValidationIssue[];

  constructor(what: string, issues: readonly ValidationIssue[]) {
    super(`Invalid ${what}: ${formatIssues(issues)}. Nothing was sent.`);
    this.issues = issues;
  }
}

/**
 * A 2xx response whose body was not JSON or did not match the documented shape. Not retried:
 * the request may have taken effect.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof ResponseValidationError) {
 *     console.error(error.status, error.issues, error.requestId, error.body);
 *   }
 * }
 * ```
 */
export class ResponseValidationError extends AgentChatError {
  static override readonly errorName: string = 'ResponseValidationError';
  /** Every mismatch found between the body and the documented shape. */
  readonly issues: readonly ValidationIssue[];
  /** The HTTP status of the response. */
  readonly status: number;
  /** The `x-request-id` the service gave the response, for support requests. */
  readonly requestId: string | undefined;
  /** The body as received: parsed JSON when it parsed, otherwise the raw text. */
  readonly body: unknown;

  constructor(
    call: CallSite,
    response: { status: number; requestId: string | undefined; body: unknown },
    issues: readonly ValidationIssue[],
  ) {
    super(
      `${call.method} ${call.path} answered ${response.status} with an unexpected body: ${formatIssues(issues)}${requestIdSuffix(response.requestId)}`,
    );
    this.issues = issues;
    this.status = response.status;
    this.requestId = response.requestId;
    this.body = response.body;
  }
}

/**
 * What the service said in a non-2xx response: the second argument of every {@link APIError}
 * constructor.
 *
 * @example
 * ```ts
 * // A fake 503, to test how your own code handles a failing service.
 * const details: APIErrorDetails = {
 *   status: 503,
 *   headers: new Headers({ 'x-request-id': 'req_1' }),
 *   body: { error: { type: 'api_error', message: 'Service unavailable' } },
 * };
 * const error = new InternalServerError({ method: 'POST', path: '/v1/projects' }, details);
 * ```
 */
export interface APIErrorDetails {
  /** The HTTP status. */
  readonly status: number;
  /** The response headers. */
  readonly headers: Headers;
  /** The body: parsed JSON when it parsed, otherwise the raw text (`undefined` when empty). */
  readonly body: unknown;
}

/**
 * The service answered with a non-2xx status. Subclasses name the common statuses;
 * `status`, `requestId` and the server's own `type`, `code` and message are on every one.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof APIError) {
 *     console.error(error.status, error.type, error.requestId, error.message);
 *   }
 * }
 * ```
 */
export class APIError extends AgentChatError {
  static override readonly errorName: string = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  /** The response headers. */
  readonly headers: Headers;
  /** The `x-request-id` of the response, for support requests. */
  readonly requestId: string | undefined;
  /** The body: parsed JSON when it parsed, otherwise the raw text (`undefined` when empty). */
  readonly body: unknown;
  /** The error type the service gave, such as `not_found_error`, when its body had one. */
  readonly type: string | undefined;
  /** The error code the service gave, when its body had one. */
  readonly code: string | undefined;

  constructor(call: CallSite, details: APIErrorDetails) {
    const serverError = readServerError(details.body);
    const requestId = details.headers.get('x-request-id') ?? undefined;
    super(
      `${call.method} ${call.path} failed with status ${details.status}${serverError.message ? `: ${serverError.message}` : ''}${requestIdSuffix(requestId)}`,
    );
    this.status = details.status;
    this.headers = details.headers;
    this.requestId = requestId;
    this.body = details.body;
    this.type = serverError.type;
    this.code = serverError.code;
  }
}

/**
 * 400: the service refused the request as malformed. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.create({ name: 'Support', agentId: 'agent_42' });
 * } catch (error) {
 *   if (error instanceof BadRequestError) console.error('Refused:', error.message);
 * }
 * ```
 */
export class BadRequestError extends APIError {
  static override readonly errorName: string = 'BadRequestError';
}
/**
 * 401: the API key is missing, malformed or unknown. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof AuthenticationError) console.error('Check AGENTCHAT_API_KEY');
 * }
 * ```
 */
export class AuthenticationError extends APIError {
  static override readonly errorName: string = 'AuthenticationError';
}
/**
 * 403: the key is valid but may not do this. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof PermissionDeniedError) console.error('This key may not read that project');
 * }
 * ```
 */
export class PermissionDeniedError extends APIError {
  static override readonly errorName: string = 'PermissionDeniedError';
}
/**
 * 404: no such project (or route). Not retried.
 *
 * @example
 * ```ts
 * const project = await client.projects.get('proj_123').catch((error: unknown) => {
 *   if (error instanceof NotFoundError) return undefined;
 *   throw error;
 * });
 * ```
 */
export class NotFoundError extends APIError {
  static override readonly errorName: string = 'NotFoundError';
}
/**
 * 409: a conflict, such as an `Idempotency-Key` reused with a different body. Retried, as the
 * retry policy retries every 409; thrown once retries run out.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.create(
 *     { name: 'Support', agentId: 'agent_42' },
 *     { idempotencyKey: 'order-1234' },
 *   );
 * } catch (error) {
 *   if (error instanceof ConflictError) console.error('order-1234 was used for another request');
 * }
 * ```
 */
export class ConflictError extends APIError {
  static override readonly errorName: string = 'ConflictError';
}
/**
 * 422: the request was well-formed but its content was refused. Not retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: 'Hello' });
 * } catch (error) {
 *   if (error instanceof UnprocessableEntityError) console.error(error.code, error.message);
 * }
 * ```
 */
export class UnprocessableEntityError extends APIError {
  static override readonly errorName: string = 'UnprocessableEntityError';
}
/**
 * 429: too many requests. `retryAfter` says how long the service asked to wait, when it did.
 * Retried; thrown once retries run out or the service asks for a wait above 60 s.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: 'Hello' });
 * } catch (error) {
 *   if (error instanceof RateLimitError) {
 *     console.error(`Rate limited; try again in ${error.retryAfter ?? 'a few'} ms`);
 *   }
 * }
 * ```
 */
export class RateLimitError extends APIError {
  static override readonly errorName: string = 'RateLimitError';
  /** How long the service asked to wait before the next request, in ms, when it said. */
  readonly retryAfter: number | undefined;

  constructor(call: CallSite, details: APIErrorDetails, retryAfter: number | undefined) {
    super(call, details);
    this.retryAfter = retryAfter;
  }
}
/**
 * 500 and above: the service failed. Retried; thrown once retries run out.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof InternalServerError) {
 *     console.error(`Service error ${error.status}, request id ${error.requestId}`);
 *   }
 * }
 * ```
 */
export class InternalServerError extends APIError {
  static override readonly errorName: string = 'InternalServerError';
}

/**
 * The request never got a response: DNS, refused or dropped connection. `cause` has the detail.
 * Retried; thrown once retries run out.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof APIConnectionError) console.error('Network problem:', error.cause);
 * }
 * ```
 */
export class APIConnectionError extends AgentChatError {
  static override readonly errorName: string = 'APIConnectionError';

  constructor(call: CallSite, cause: unknown, message?: string) {
    super(
      message ?? `${call.method} ${call.path} could not reach the service: ${describe(cause)}`,
      {
        cause,
      },
    );
  }
}

/**
 * An attempt ran past its `timeout`. A subclass of {@link APIConnectionError}; retried.
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.send({ projectId: 'proj_123', message: 'Hello' }, { timeout: 5_000 });
 * } catch (error) {
 *   if (error instanceof APITimeoutError) console.error('No answer within 5 s per attempt');
 * }
 * ```
 */
export class APITimeoutError extends APIConnectionError {
  static override readonly errorName: string = 'APITimeoutError';

  constructor(call: CallSite, timeoutMs: number) {
    super(call, undefined, `${call.method} ${call.path} timed out after ${timeoutMs} ms`);
  }
}

/**
 * The caller's `AbortSignal` fired; no further attempt was made. `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1_000);
 * try {
 *   await client.chat.send(
 *     { projectId: 'proj_123', message: 'Hello' },
 *     { signal: controller.signal },
 *   );
 * } catch (error) {
 *   if (error instanceof APIUserAbortError) console.log('Cancelled');
 * }
 * ```
 */
export class APIUserAbortError extends AgentChatError {
  static override readonly errorName: string = 'APIUserAbortError';

  constructor(call: CallSite, reason: unknown) {
    super(`${call.method} ${call.path} was aborted`, { cause: reason });
  }
}

const statusClasses: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
};

/** The one place that maps a non-2xx status to its error class. */
export function createAPIError(
  call: CallSite,
  details: APIErrorDetails,
  retryAfter: number | undefined,
): APIError {
  if (details.status === 429) return new RateLimitError(call, details, retryAfter);
  if (details.status >= 500) return new InternalServerError(call, details);
  const ErrorClass = statusClasses[details.status] ?? APIError;
  return new ErrorClass(call, details);
}

/**
 * True for any error thrown by `agentchat`, from any copy of the package.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (isAgentChatError(error)) console.error(error.name, error.message);
 *   else throw error;
 * }
 * ```
 */
export function isAgentChatError(value: unknown): value is AgentChatError {
  return value instanceof AgentChatError;
}

/**
 * True for a non-2xx response from the service, from any copy of the package.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (isAPIError(error)) console.error(error.status, error.requestId);
 * }
 * ```
 */
export function isAPIError(value: unknown): value is APIError {
  return value instanceof APIError;
}

function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
    .join('; ');
}

function requestIdSuffix(requestId: string | undefined): string {
  return requestId ? ` (request id ${requestId})` : '';
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's fetch says only "fetch failed"; the useful part (ECONNREFUSED, ...) is its cause.
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
}

const MAX_MESSAGE_LENGTH = 300;

/**
 * Reads `{"error":{"type","message","code"}}`, `{"message"}` or `{"error":"..."}` bodies; for
 * any other body (HTML from a proxy, plain text) it keeps a short, tag-free excerpt.
 */
function readServerError(body: unknown): { message?: string; type?: string; code?: string } {
  if (typeof body === 'string') {
    const text = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text ? { message: truncate(text) } : {};
  }
  if (typeof body !== 'object' || body === null) return {};
  const error = (body as { error?: unknown }).error;
  const source = typeof error === 'object' && error !== null ? error : body;
  const field = (name: string) => {
    const value = (source as Record<string, unknown>)[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const message = field('message') ?? (typeof error === 'string' ? error : undefined);
  const result: { message?: string; type?: string; code?: string } = {};
  if (message) result.message = truncate(message);
  const type = field('type');
  if (type) result.type = type;
  const code = field('code');
  if (code) result.code = code;
  return result;
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}…` : text;
}
