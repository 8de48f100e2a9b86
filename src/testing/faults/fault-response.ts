import { jsonResponse, textResponse } from '../http/responses.js';
import { errorResponse } from '../http/service-error.js';
import type { Fault } from './fault.js';

/** Statuses whose responses cannot carry a body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

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
  if (body === undefined) return errorResponse(status, requestId, headers ? { headers } : {});
  if (typeof body === 'string') {
    return textResponse(status, body, 'text/plain; charset=utf-8', headers);
  }
  return jsonResponse(status, body, headers);
}
