/**
 * A lingering close, as nginx's `lingering_close` (RFC 9112 section 9.6), for node:http: a
 * connection closed after an answer that refused a body still arriving (a 413) is half-closed and
 * read on, discarding, for a moment before it is destroyed. Destroyed at once, with the body's
 * bytes still coming, the kernel resets the connection, and a client busy sending (curl, fetch,
 * any uploader) fails with EPIPE or ECONNRESET without reading the answer that says why.
 *
 * Both servers of the package use it: the mock's bridge (src/testing/node/fetch-bridge.ts) after
 * a 413 it answers itself, and `agentchat-mcp --http` (src/mcp/http.ts) whenever node:http
 * closes a connection whose request was not read to its end. It knows only node:http and
 * node:net, so neither build pulls in the other's code.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long the connection is kept after the answer: the time a client has to read it, however
 * fast it sends and however busy its machine is.
 */
const LINGER_MS = 1_000;
/**
 * How much of a refused body is read and discarded in that time, at most: past it, reading stops,
 * and a fast client's sending stalls (TCP's flow control) instead of going on to its end.
 */
const LINGER_BYTES = 2 * 1024 * 1024;

/**
 * Ends our side of `socket` (the answer is out, and the client is told so by a FIN), discards
 * what the client still sends, up to {@link LINGER_BYTES}, and destroys the socket when the client
 * closes its side or after {@link LINGER_MS}.
 *
 * Past the bytes, the socket is paused, not destroyed: destroyed with the client's bytes still
 * arriving, the kernel resets the connection within milliseconds of the answer, and a client not
 * scheduled in those milliseconds (a loaded machine) meets EPIPE before it reads the 413. Paused,
 * it has the whole {@link LINGER_MS}; what it can send meanwhile is what the kernels' buffers hold.
 */
export function closeLingeringly(socket: Socket): void {
  socket.end();
  let discarded = 0;
  const close = () => socket.destroy();
  const timer = setTimeout(close, LINGER_MS);
  // A lingering connection never keeps a process alive that is otherwise done.
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', close);
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) socket.pause();
  });
}

/**
 * Makes `server` close connections with an unfinished request lingeringly, where node:http would
 * destroy them (after an answer with `connection: close`); the function returned is to be called
 * with each request, so that the connection's last one is known.
 */
export function closeUnfinishedLingeringly(server: Server): (request: IncomingMessage) => void {
  const requests = new WeakMap<Socket, IncomingMessage>();
  server.on('connection', (socket: Socket) => {
    const closeNow = socket.destroySoon.bind(socket);
    // node:http closes a connection after an answer with `connection: close` by destroySoon().
    socket.destroySoon = () => {
      const request = requests.get(socket);
      if (request === undefined || request.complete) return closeNow();
      closeLingeringly(socket);
    };
  });
  return (request) => {
    requests.set(request.socket, request);
  };
}
