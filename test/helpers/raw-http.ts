/**
 * HTTP as a hostile or careless client writes it, on a raw socket: request lines and headers that
 * Node's and fetch's clients refuse to send, bodies that never end, connections left idle.
 */
import { connect, type Socket } from 'node:net';

/** What a server did with one raw request. */
export interface RawAnswer {
  /** The status of its answer, or 0 when it closed without one. */
  readonly status: number;
  /** Everything it wrote before closing. */
  readonly text: string;
}

/** Opens a socket to `url`'s host and port, resolving once connected. */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Resolves once the server closes `socket`, with what it wrote. A reset by the server counts as a
 * close: what it wrote before is kept.
 */
export function closedBy(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      // Only the head is of interest; a long body is not kept.
      if (text.length < 4096) text += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.once('close', () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }),
    );
  });
}

/**
 * Sends `head` (a request line and headers, unchecked, without the blank line) with an empty body
 * and `connection: close`, and resolves with the server's answer once it closes.
 */
export async function rawExchange(url: string, head: string): Promise<RawAnswer> {
  const socket = await openSocket(url);
  const answer = closedBy(socket);
  socket.write(`${head}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
  return answer;
}

/**
 * Writes `total` bytes of body (`Infinity` for an endless one) to `socket` in 64 KiB chunks, as
 * fast as the server reads them and no faster, in chunked encoding when `chunked`. Stops when the
 * server closes the connection; resolves with how many bytes were written by then.
 */
export function streamBody(socket: Socket, total: number, chunked: boolean): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const framed = chunked
    ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    : chunk;
  return new Promise((resolve) => {
    let written = 0;
    let done = false;
    const finish = () => {
      done = true;
      resolve(written);
    };
    socket.once('close', finish);
    const pump = () => {
      while (!done && written < total) {
        written += chunk.length;
        if (!socket.write(framed)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!done && chunked) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

/** One answer read off a connection that stays open: its status, lower-case headers and body. */
export interface KeptAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Writes `request` (a whole request, head and body, unchecked) on an open `socket` and resolves
 * with the one answer read back, framed by its `Content-Length` or chunked encoding (none for a
 * HEAD), leaving the connection open for the next. Rejects when the server closes the connection
 * before the answer is whole.
 */
export function exchangeOn(socket: Socket, request: string, head = false): Promise<KeptAnswer> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const answer = parseAnswer(buffer, head);
      if (!answer) return;
      finish();
      resolve(answer);
    };
    const onClose = () => {
      finish();
      reject(
        new Error(
          `the server closed the connection; it wrote ${JSON.stringify(buffer.toString('latin1'))}`,
        ),
      );
    };
    const finish = () => {
      socket.off('data', onData);
      socket.off('close', onClose);
    };
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(request);
  });
}

/** The answer at the start of `buffer` once it is whole, else `undefined`. */
function parseAnswer(buffer: Buffer, head: boolean): KeptAnswer | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const rest = buffer.subarray(end + 4);
  if (head || status === 204 || status === 304) return { status, headers, body: '' };
  if (headers['transfer-encoding'] === 'chunked') {
    let body = '';
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
      if (size === 0) return rest.length >= lineEnd + 4 ? { status, headers, body } : undefined;
      if (rest.length < lineEnd + 2 + size + 2) return undefined;
      body += rest.subarray(lineEnd + 2, lineEnd + 2 + size).toString('utf8');
      at = lineEnd + 2 + size + 2;
    }
  }
  const length = Number(headers['content-length'] ?? 0);
  return rest.length >= length
    ? { status, headers, body: rest.subarray(0, length).toString('utf8') }
    : undefined;
}
