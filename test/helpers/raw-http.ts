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
