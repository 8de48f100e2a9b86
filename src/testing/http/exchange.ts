import type { RecordedRequest } from '../store/request-log.js';
import type { RequestBody } from './request-body.js';

/** One request on its way through the service: received, read and logged. */
export interface Exchange {
  request: Request;
  /** Its entry in the request log, which later steps complete (status, fault). */
  entry: RecordedRequest;
  body: RequestBody;
  requestId: string;
  /** Aborts when the client gives up or the mock is reset. */
  signal: AbortSignal;
}

/**
 * The request again with its body unread, for a test's agent or override to read as it likes:
 * the service has read the original already.
 *
 * @example
 * ```ts
 * const request = readableCopy(exchange.request, exchange.body);
 * await request.json();
 * ```
 */
export function readableCopy(request: Request, body: RequestBody): Request {
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: body.kind === 'empty' ? null : body.text,
  });
}
