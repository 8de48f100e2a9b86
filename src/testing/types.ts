import type { HttpHandler } from 'msw';

/**
 * Options of {@link createMockService}.
 *
 * @example
 * ```ts
 * const mock = createMockService({ baseUrl: 'https://agentchat.test/api', apiKeys: ['sk_test'] });
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
   *
   * @default any non-empty key
   */
  apiKeys?: readonly string[];
  /**
   * Latency added to every response, in milliseconds. {@link MockService.setLatency} changes it
   * later; {@link MockService.reset} restores this value.
   *
   * @default 0
   */
  latencyMs?: number;
}

/**
 * A running mock of the service: its request handlers, its state, and the knobs tests turn.
 *
 * @example
 * ```ts
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledFrame: 'error' });
 * mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });
 * ```
 */
export interface MockService {
  /** The service root the handlers answer under, without a trailing slash. */
  readonly baseUrl: string;
  /** msw request handlers serving the service; pass them to `setupServer` or `setupWorker`. */
  readonly handlers: readonly HttpHandler[];
  /** Every request received under {@link MockService.baseUrl}, oldest first, rejected and faulted ones included. */
  readonly requests: readonly RecordedRequest[];
  /** A copy of the projects in the store, oldest first. */
  projects(): StoredProject[];
  /**
   * Queues faults; each answers the next request received (any route) in place of the service.
   *
   * @throws RangeError for a status outside 200–599 or a negative delay, and TypeError for an
   * unknown fault kind, at once rather than mid-request.
   * @example
   * ```ts
   * mock.enqueue({ kind: 'network-error' }, { kind: 'status', status: 500 });
   * ```
   */
  enqueue(...faults: Fault[]): void;
  /**
   * Sets the latency added to every response, in milliseconds.
   *
   * @throws RangeError unless `ms` is a finite number >= 0.
   * @example
   * ```ts
   * mock.setLatency(50); // every answer now takes at least 50 ms
   * ```
   */
  setLatency(ms: number): void;
  /**
   * Empties the store, the fault queue, the request log and the idempotency records, restores the
   * latency option, and drops requests still waiting (hang, delay, latency) as network errors.
   */
  reset(): void;
}

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
 * @example
 * ```ts
 * mock.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
 * mock.enqueue({ kind: 'malformed', body: '{"id":' });
 * mock.enqueue({ kind: 'hang' });
 * ```
 */
export type Fault =
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
 * One request as the mock received it, in {@link MockService.requests}.
 *
 * @example
 * ```ts
 * await client.projects.create({ name: 'Demo', agentId: 'agent_1' }, { idempotencyKey: 'order-1' });
 * expect(mock.requests.map((r) => r.headers['idempotency-key'])).toEqual(['order-1']);
 * ```
 */
export interface RecordedRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Full URL as received. */
  url: string;
  /** URL path as received (still percent-encoded), e.g. `/api/v1/projects`. */
  path: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
  /** The body parsed as JSON, or its raw text when it is not JSON, or `undefined` when empty. */
  body: unknown;
  /** Kind of the fault that answered this request, if one did. */
  fault?: Fault['kind'];
  /** Status answered; `undefined` while pending and for dropped or hanging requests. */
  status?: number;
}

/**
 * A project as the mock's store holds it.
 *
 * @example
 * ```ts
 * expect(mock.projects()).toMatchObject([{ name: 'Demo', agentId: 'agent_1', status: 'active' }]);
 * ```
 */
export interface StoredProject {
  /** `proj_` followed by random letters and digits. */
  id: string;
  /** The name the client sent. */
  name: string;
  /** The agent id the client sent. */
  agentId: string;
  /** `active` for every project the mock creates. */
  status: string;
  /** As the client sent it; `{}` when omitted. */
  metadata: Record<string, unknown>;
  /** ISO 8601 UTC creation time. */
  createdAt: string;
}
