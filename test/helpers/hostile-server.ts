/**
 * A bare HTTP server on 127.0.0.1 that answers however a test tells it to: the misbehaving
 * service of the hostile-server proofs, met over a real socket as a user's client would meet it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from './keep-alive.js';

/** A project as the service answers `projects.get`, for servers that answer it right. */
export const project = {
  id: 'proj_1',
  name: 'P',
  agentId: 'a',
  status: 'active',
  metadata: {},
  createdAt: '2026-01-01T00:00:00Z',
};

/** Answers with `status` and `body` as JSON (a string as it is), with any extra `headers`. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Answers one request; `index` counts requests from 0 since the server started or was reset. */
export type HostileHandler = (req: IncomingMessage, res: ServerResponse, index: number) => void;

export interface HostileServer {
  /** The base URL to give the client (`http://127.0.0.1:<port>/api`). */
  readonly baseUrl: string;
  /** How many requests arrived since the last `answer`. */
  readonly requests: number;
  /** Replaces the handler and resets the count. */
  answer(handler: HostileHandler): void;
  close(): Promise<void>;
}

/** Starts a server whose answers the test sets with `answer`. */
export async function startHostileServer(): Promise<HostileServer> {
  let handler: HostileHandler = (_req, res) => res.end();
  let requests = 0;
  const server = keepIdleConnections(
    createServer((req, res) => {
      // A client that stops reading (a body past its limit) resets the socket; nothing to report.
      res.on('error', () => {});
      req.resume();
      handler(req, res, requests++);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    get requests() {
      return requests;
    },
    answer(next) {
      handler = next;
      requests = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
