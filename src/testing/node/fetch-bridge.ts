/**
 * Node's HTTP server to the mock's fetch handlers and back, through `@remix-run/node-fetch-server`
 * (bundled into the build; no dependency of the package): the request body reaches the service
 * as a stream that reads from the socket only as fast as the service reads it, the request's
 * signal aborts when the client goes away, and the answer is written as fast as the client takes
 * it. What it leaves to us: the URL (this server's origin, whatever the Host says, and a path
 * even when the request line held an absolute URL), methods fetch cannot carry, errors, and the
 * body of a request answered without reading it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequest, sendResponse } from '@remix-run/node-fetch-server';
import { splitAbsoluteForm } from '../../internal/request-target.js';
import { discardUnreadBody } from './unread-body.js';

/**
 * Methods a fetch `Request` cannot be made with (the Fetch standard's forbidden methods), which
 * node:http still hands over; CONNECT never reaches a `request` listener.
 */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** What {@link createBridge} needs to know about the server it serves. */
export interface BridgeOptions {
  /**
   * This server's own origin, the base of every request's URL: a request line of `//host/x`
   * stays a path on this server, and a forged Host changes nothing.
   */
  readonly origin: string;
  /** Answers a request; a `Response` of type `error` (a network-error fault) drops the connection. */
  readonly answer: (request: Request) => Promise<Response>;
  /**
   * Answers a request whose method fetch cannot carry (TRACE, TRACK), by its method and its path
   * (still percent-encoded): the service's 405 with `Allow` on a path it knows.
   */
  readonly refuseMethod: (method: string, path: string) => Response;
  /** The server's own error answer, for a request that could not be answered otherwise. */
  readonly refuse: (status: number, message: string) => Response;
  /** Reason phrases by status, Node's `STATUS_CODES`. */
  readonly reasons: Readonly<Record<number, string | undefined>>;
}

/**
 * Makes the listener of Node's `request` event. A method fetch cannot carry is answered by
 * `refuseMethod`; an error thrown while answering by `refuse`: 400 for a request fetch cannot
 * represent (a bad URL), else 500.
 *
 * @example
 * ```ts
 * const { STATUS_CODES } = await import('node:http');
 * const serve = createBridge({ origin, answer, refuseMethod, refuse, reasons: STATUS_CODES });
 * server.on('request', (req, res) => serve(req, res).catch(() => res.destroy()));
 * ```
 */
export function createBridge({ origin, answer, refuseMethod, refuse, reasons }: BridgeOptions) {
  const { host, protocol } = new URL(origin);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // An absolute-form target names a host, which this server's own origin replaces anyway.
    const absolute = splitAbsoluteForm(req.url ?? '');
    if (absolute !== undefined) req.url = absolute.path;
    let response: Response;
    try {
      response = FORBIDDEN_METHODS.has(req.method ?? '')
        ? refuseMethod(req.method ?? '', new URL(req.url ?? '/', origin).pathname)
        : await answer(createRequest(req, res, { host, protocol }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      response = refuse(
        error instanceof TypeError ? 400 : 500,
        `The request could not be read: ${reason}`,
      );
    }
    if (res.destroyed) return;
    if (response.type === 'error') {
      // A network-error fault: drop the connection the way a crashed server or proxy would.
      req.socket.destroy();
      return;
    }
    // Answered before the whole body arrived (a 413, a refusal that needed no body): a small rest
    // is read and dropped, keeping the connection for the next request; a large one is not worth
    // reading. Not `Connection: close`, with which Node would drop the connection, unread bytes
    // and all, as soon as the answer is written, and the client could be reset before reading it.
    if (!req.complete) res.once('finish', () => discardUnreadBody(req));
    // sendResponse writes `statusText` as the reason phrase, and a fetch Response made without
    // one has none: `HTTP/1.1 201 ` rather than `HTTP/1.1 201 Created`.
    const reason = response.statusText || reasons[response.status];
    if (reason && reason !== response.statusText) {
      const { body, status, headers } = response;
      response = new Response(body, { status, statusText: reason, headers });
    }
    await sendResponse(res, response);
  };
}
