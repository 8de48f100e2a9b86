import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { assertMilliseconds } from '../http/wait.js';

/**
 * A scripted answer for one request, queued with {@link MockService.enqueue}.
 *
 * - `status`: answer this status. `body` defaults to the standard error body for statuses from
 *   400, and to no body below; a string body is sent as is (`text/plain` unless `headers` say
 *   otherwise), anything else as JSON.
 * - `malformed`: answer a body that is not valid JSON or is off schema; status defaults to 200
 *   and `contentType` to `application/json`.
 * - `network-error`: drop the connection without an answer.
 * - `delay`: wait `ms`, then handle the request normally.
 * - `hang`: never answer; the request settles quietly once its signal aborts.
 *
 * Each fault answers the next request whatever its path, or with `path`, the next request to
 * that path (see {@link FaultTarget}).
 *
 * @example
 * ```ts
 * mock.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
 * mock.enqueue({ kind: 'malformed', body: '{"id":' });
 * mock.enqueue({ kind: 'status', status: 503, path: '/oauth/token' });
 * mock.enqueue({ kind: 'hang' });
 * ```
 */
export type Fault = FaultTarget & FaultAnswer;

/**
 * What a fault answers, wherever it is aimed: the kinds of {@link Fault}. An override answers one
 * of these too.
 *
 * @example
 * ```ts
 * const outage: FaultAnswer = { kind: 'status', status: 503, headers: { 'retry-after': '0' } };
 * ```
 */
export type FaultAnswer =
  | {
      /** Answer with a chosen status. */
      kind: 'status';
      /** The status to answer, 200–599. */
      status: number;
      /** Response headers, such as `retry-after`. */
      headers?: Record<string, string>;
      /** The body; the standard error body for statuses from 400 when absent. */
      body?: unknown;
    }
  | {
      /** Answer with a body that is not valid JSON or is off schema. */
      kind: 'malformed';
      /** The status to answer, 200–599; 200 when absent. */
      status?: number;
      /** The raw body text. */
      body: string;
      /** The `content-type` header; `application/json` when absent. */
      contentType?: string;
    }
  | {
      /** Drop the connection without an answer. */
      kind: 'network-error';
    }
  | {
      /** Wait, then handle the request normally. */
      kind: 'delay';
      /** How long to wait, in ms. */
      ms: number;
    }
  | {
      /** Never answer; the request settles once its signal aborts. */
      kind: 'hang';
    };

/**
 * Which request a fault answers.
 *
 * @example
 * ```ts
 * // The next chat message fails, whatever else is sent first.
 * mock.enqueue({ kind: 'status', status: 500, path: '/v1/projects/:id/chat' });
 * ```
 */
export interface FaultTarget {
  /**
   * Answer only a request to this path below the base URL, such as `/oauth/token`,
   * `/v1/projects` or `/v1/projects/:id/chat` (a `:name` segment matches any one segment).
   *
   * @default the next request, whatever its path
   */
  path?: string;
}

/**
 * Throws on a fault that could not be answered, at `enqueue` time rather than mid-request where
 * the test would only see a confusing network error.
 *
 * @example
 * ```ts
 * assertFault({ kind: 'status', status: 99 }); // throws ConfigurationError
 * ```
 */
export function assertFault(fault: Fault): void {
  if (fault.path !== undefined && (typeof fault.path !== 'string' || !fault.path.startsWith('/'))) {
    throw new ConfigurationError(
      `Fault path must be a path below the base URL starting with "/", got ${JSON.stringify(fault.path)}`,
    );
  }
  switch (fault.kind) {
    case 'status':
    case 'malformed':
      assertStatus(fault.status ?? 200);
      return;
    case 'delay':
      assertMilliseconds(fault.ms, 'delay fault ms');
      return;
    case 'network-error':
    case 'hang':
      return;
    default:
      throw new ConfigurationError(
        `Unknown fault kind: ${JSON.stringify((fault as { kind?: unknown }).kind)}`,
      );
  }
}

function assertStatus(status: number): void {
  // The range a Response can be built with.
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new ConfigurationError(`Fault status must be an integer from 200 to 599, got ${status}`);
  }
}
