import type { Fault } from '../faults/fault.js';

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
  /** The `x-request-id` of the answer, also in the error body's `requestId`. */
  requestId: string;
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
