/**
 * A lingering close, as nginx's `lingering_close`, for node:http: a connection closed after an
 * answer that refused a body still arriving (a 413 with `connection: close`) is half-closed and
 * read on, discarding, for a moment before it is destroyed. Destroyed at once, with the body's
 * bytes still coming, the kernel resets the connection, and a client busy sending (curl, fetch,
 * any uploader) fails with EPIPE or ECONNRESET without reading the answer that says why.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a refused body is read on after the answer: time for a client to read it. Where
 * node:http has stopped reading (a chunked body given up midway), the client's sending stalls
 * instead, and the connection waits this long, idle, before it is closed.
 */
const LINGER_MS = 1_000;
/** How much of it at most: a fast client is still cut off after a few MiB, not at its end. */
const LINGER_BYTES = 2 * 1024 * 1024;

/**
 * Makes `server` close connections with an unfinished request lingeringly; the function returned
 * is to be called with each request, so that the connection's last one is known.
 */
export function lingeringClose(server: Server): (request: IncomingMessage) => void {
  const requests = new WeakMap<Socket, IncomingMessage>();
  server.on('connection', (socket: Socket) => {
    const closeNow = socket.destroySoon.bind(socket);
    // node:http closes a connection after an answer with `connection: close` by destroySoon().
    socket.destroySoon = () => {
      const request = requests.get(socket);
      if (request === undefined || request.complete) return closeNow();
      // The answer is out and the client told so (FIN); what it still sends is discarded.
      socket.end();
      let discarded = 0;
      const close = () => socket.destroy();
      const timer = setTimeout(close, LINGER_MS);
      socket.once('close', () => clearTimeout(timer));
      socket.once('end', close);
      socket.on('data', (chunk: Buffer) => {
        discarded += chunk.length;
        if (discarded > LINGER_BYTES) close();
      });
    };
  });
  return (request) => {
    requests.set(request.socket, request);
  };
}
