/**
 * Listening on a port and letting it go, for the package's Node servers of the testing kit (the
 * mock, the local issuer): a one-line error for a port that cannot be bound, a deep accept queue,
 * and a close that does not wait for idle connections.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a listen error means, for the one line a user reads. */
const LISTEN_ERRORS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is already in use',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'the address is not available on this machine',
  ENOTFOUND: 'the host name does not resolve',
};

/** Connections the kernel may queue before the server accepts them. */
const LISTEN_BACKLOG = 4_096;

/**
 * Listens on `host:port`, rejecting with a one-line message and the error's `code` (such as
 * `EADDRINUSE`) when the port cannot be bound.
 */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason = LISTEN_ERRORS[error.code ?? ''] ?? error.message;
      reject(
        Object.assign(
          new Error(`Cannot listen on ${host}:${port}: ${reason} (${error.code ?? 'error'})`, {
            cause: error,
          }),
          { code: error.code },
        ),
      );
    };
    server.once('error', onError);
    // A deep accept queue: a test suite opening a thousand connections at once on a busy machine
    // would otherwise overflow Node's default of 511, and the kernel drop the rest of the SYNs
    // until a client's connect timeout ends them (capped by the system's somaxconn).
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Stops listening and drops every open connection, idle and hanging ones included. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Idle keep-alive sockets and hanging requests would otherwise hold close() open for minutes.
    server.closeAllConnections();
  });
}

/** `http://host:port` for the bound address; wildcard addresses become loopback, which clients can reach. */
export function originOf({ address, family, port }: AddressInfo): string {
  if (family === 'IPv6') return `http://[${address === '::' ? '::1' : address}]:${port}`;
  return `http://${address === '0.0.0.0' ? '127.0.0.1' : address}:${port}`;
}
