/**
 * The base of the error tree, and the brand that makes `instanceof` hold across the ESM and CJS
 * builds (or two copies of the package) loaded in one process: each error records the names of
 * its classes, and each class's `Symbol.hasInstance` looks its own name up there.
 */
import { cut } from '../../internal/cut.js';

export { cut };

const KINDS = Symbol.for('agentchat.error.kinds');

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
 * The base of every error from `agentchat`. Its subclasses say what went wrong: refused
 * options ({@link ConfigurationError}), the service's answer ({@link APIError}), the network
 * ({@link APIConnectionError}), and so on. Thrown as itself only when a function of yours failed
 * inside a call (an `apiKey` function, a middleware), with your error as its `cause`.
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
    // A server or an input can make a message arbitrarily long (a 1 MB id echoed back); a log line
    // or a terminal has no use for more than this.
    super(cut(message, MAX_MESSAGE_LENGTH), options);
    const kinds: string[] = [];
    for (let c = new.target as unknown as ErrorClass; c && 'errorName' in c; ) {
      if (Object.hasOwn(c, 'errorName')) kinds.push(c.errorName);
      c = Object.getPrototypeOf(c);
    }
    Object.defineProperty(this, KINDS, { value: kinds });
    this.name = kinds[0] ?? 'AgentChatError';
  }

  /**
   * True when the call ended at once, unretried, because the client's retry budget was spent:
   * many of its calls failed lately, so the client stopped retrying to spare the service (see the
   * `retryBudget` option). The error is otherwise the last attempt's own; false for every other.
   *
   * @example
   * ```ts
   * try {
   *   await client.projects.get('proj_123');
   * } catch (error) {
   *   if (error instanceof AgentChatError && error.retryBudgetExhausted) {
   *     console.error('The service is failing; not piling retries on it.');
   *   }
   * }
   * ```
   */
  get retryBudgetExhausted(): boolean {
    return false;
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

  /**
   * A plain object of the error's name, message and public fields, for structured logs, typed by
   * the error's class (a {@link NotFoundError}'s has `status: 404`).
   *
   * @example
   * ```ts
   * try {
   *   await client.projects.get('proj_123');
   * } catch (error) {
   *   if (error instanceof NotFoundError) {
   *     const json = error.toJSON(); // { name, message, status: 404, requestId, body, type, code }
   *     console.error(JSON.stringify(json));
   *   }
   * }
   * ```
   */
  toJSON(): ErrorJSON<this> {
    const json: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'headers' && key !== 'cause') json[key] = value;
    }
    return json as ErrorJSON<this>;
  }
}

/**
 * What `toJSON()` gives for an error of class `E`: its name and message, whether the retry budget
 * ended the call, and the class's own public fields (`status`, `requestId`, `issues`, ...), less
 * the response headers (large, and read on the error itself) and the `cause`.
 *
 * @example
 * ```ts
 * function logNotFound(error: NotFoundError): void {
 *   const json: ErrorJSON<NotFoundError> = error.toJSON();
 *   console.error(json.name, json.status, json.requestId); // NotFoundError 404 req_…
 * }
 * ```
 */
export type ErrorJSON<E extends AgentChatError> = {
  /** The error's class name, such as `NotFoundError`. */
  readonly name: string;
  /** The error's message. */
  readonly message: string;
  /** Present, and true, on an error that ended its call because the retry budget was spent. */
  readonly retryBudgetExhausted?: true;
} & {
  readonly [K in Exclude<keyof E, keyof AgentChatError | 'headers'> as E[K] extends (
    ...args: never[]
  ) => unknown
    ? never
    : K]: E[K];
};

/** The longest message an error has, in characters. */
const MAX_MESSAGE_LENGTH = 1_000;

/**
 * Ends `error`'s message with `note`, what comes before cut so that the note always shows: for an
 * error made for an attempt that the client then decides about. Nobody has read it yet, so its
 * stack (formatted on first read) carries the new message too.
 */
export function addNote(error: AgentChatError, note: string): void {
  error.message = cut(error.message, MAX_MESSAGE_LENGTH - note.length) + note;
}

/** `GET /v1/projects/proj_123`: how messages name a call, its path cut like any quoted value. */
export function describeCall(call: CallSite): string {
  return `${call.method} ${cut(call.path)}`;
}

/** ` (request id req_…)`, or nothing when the response had none: the end of several messages. */
export function requestIdSuffix(requestId: string | undefined): string {
  return requestId ? ` (request id ${requestId})` : '';
}
