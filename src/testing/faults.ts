import { errorResponse } from './errors.js';
import { jsonResponse, textResponse } from './responses.js';
import type { Fault } from './types.js';

/** Statuses whose responses cannot carry a body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * Throws on a fault that could not be answered, at `enqueue` time rather than mid-request where
 * the test would only see a confusing network error.
 *
 * @example
 * ```ts
 * assertFault({ kind: 'status', status: 99 }); // throws RangeError
 * ```
 */
export function assertFault(fault: Fault): void {
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
      throw new TypeError(
        `Unknown fault kind: ${JSON.stringify((fault as { kind?: unknown }).kind)}`,
      );
  }
}

/**
 * Throws unless `ms` is a finite, non-negative number of milliseconds.
 *
 * @example
 * ```ts
 * assertMilliseconds(-1, 'latencyMs'); // throws RangeError
 * ```
 */
export function assertMilliseconds(ms: number, name: string): void {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`${name} must be a finite number >= 0, got ${ms}`);
  }
}

function assertStatus(status: number): void {
  // The range a Response can be built with.
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`Fault status must be an integer from 200 to 599, got ${status}`);
  }
}

/**
 * The response a `status` or `malformed` fault answers with.
 *
 * @example
 * ```ts
 * faultResponse({ kind: 'status', status: 503, headers: { 'retry-after': '1' } }, 'req_1');
 * ```
 */
export function faultResponse(
  fault: Extract<Fault, { kind: 'status' | 'malformed' }>,
  requestId: string,
): Response {
  if (fault.kind === 'malformed') {
    return textResponse(fault.status ?? 200, fault.body, fault.contentType ?? 'application/json');
  }

  const { status, headers, body } = fault;
  if (NULL_BODY_STATUSES.has(status) || (body === undefined && status < 400)) {
    return textResponse(status, null, undefined, headers);
  }
  if (body === undefined) return errorResponse(status, requestId, undefined, headers);
  if (typeof body === 'string') {
    return textResponse(status, body, 'text/plain; charset=utf-8', headers);
  }
  return jsonResponse(status, body, headers);
}
