/**
 * What becomes of a request body the answer left unread: a request refused before its body was
 * needed (a 404 outside the service, a 405, a GET or TRACE sent with a body). Read on and thrown
 * away when it is small, so that the connection, answered `Connection: keep-alive`, serves the
 * client's next request; closed lingeringly when it is large or has no end in sight, so that a
 * client cannot make the server read an endless upload it never asked for.
 */
import type { IncomingMessage } from 'node:http';
import { closeLingeringly } from '../../internal/lingering-close.js';

/**
 * The most of an unread body read and discarded to keep its connection: far above what a stray
 * body of a refused request holds, far below what a server should read for nothing.
 */
export const DISCARDED_BODY_LIMIT = 64 * 1024;

/**
 * Settles the unread rest of `req`'s body once its answer is written: discarded up to
 * {@link DISCARDED_BODY_LIMIT}, keeping the connection for the next request; past it (or
 * announced past it by `Content-Length`), the connection is closed lingeringly.
 *
 * @example
 * ```ts
 * res.once('finish', () => discardUnreadBody(req));
 * ```
 */
export function discardUnreadBody(req: IncomingMessage): void {
  if (req.complete) return;
  if (Number(req.headers['content-length']) > DISCARDED_BODY_LIMIT) {
    closeLingeringly(req.socket);
    return;
  }
  let discarded = 0;
  // Node's own way to discard a body (IncomingMessage's `_dump`): whoever listened to the body
  // (the fetch Request's stream, left unread) hears no more, and the rest is read and dropped.
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded <= DISCARDED_BODY_LIMIT) return;
    req.removeAllListeners('data');
    req.pause();
    closeLingeringly(req.socket);
  });
  req.resume();
}
