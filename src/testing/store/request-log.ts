import type { Fault } from '../faults/fault.js';

/**
 * One request as the mock received it, in {@link MockService.requestLog}.
 *
 * @example
 * ```ts
 * await client.projects.create({ name: 'Demo', agentId: 'agent_1' }, { idempotencyKey: 'order-1' });
 * expect(mock.requestLog().map((r) => r.headers['idempotency-key'])).toEqual(['order-1']);
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
  /**
   * The body parsed as JSON, or its raw text when it is not JSON, or `undefined` when empty (or
   * over the body limit, answered 413). A body over 16 KiB is kept as its first 16 KiB of text,
   * with `bodyTruncated`.
   */
  body: unknown;
  /** Set when `body` holds only the first 16 KiB of a longer body, as text. */
  bodyTruncated?: true;
  /** Kind of the fault that answered this request, if one did. */
  fault?: Fault['kind'];
  /** Status answered; `undefined` while pending and for dropped or hanging requests. */
  status?: number;
}

/**
 * The mock's log of requests, newest last, keeping the latest `limit`: a mock serving for hours
 * must not grow with every request. What the test kit counts over the whole run (token requests)
 * is counted apart, so the bound loses no answer a test asks for.
 *
 * @example
 * ```ts
 * const log = createRequestLog(2);
 * log.add(first); log.add(second); log.add(third);
 * log.list(); // [second, third]
 * ```
 */
export function createRequestLog(limit: number) {
  let entries: RecordedRequest[] = [];
  return {
    add(entry: RecordedRequest): void {
      entries.push(entry);
      if (entries.length > limit) entries.shift();
    },
    /** A copy of the latest `limit` entries, oldest first. */
    list(): RecordedRequest[] {
      return [...entries];
    },
    clear(): void {
      entries = [];
    },
  };
}
