import type { Server } from 'node:http';

/**
 * Keeps a test server's idle connections open for a minute rather than Node's 5 s. fetch reuses
 * an idle connection until shortly before the server's advertised keep-alive ends; on a loaded
 * machine a request can be written just as the server closes that connection, and fails with
 * ECONNRESET: a failure of the test's timing, not of the code under test. Servers are closed
 * with their connections at the end of each file, so nothing outlives the test.
 */
export function keepIdleConnections<T extends Server>(server: T): T {
  server.keepAliveTimeout = 60_000;
  return server;
}
