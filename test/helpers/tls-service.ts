/**
 * The service behind TLS with a private CA's certificate, as a company's internal deployment
 * would be: a small HTTPS server answering `GET {baseUrl}/v1/projects/{id}`, optionally requiring a
 * client certificate (mutual TLS) or presenting an expired certificate, recording what reached it.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { PrivateCa } from './certificates.js';

/** One request that reached the service. */
export interface TlsServiceRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The common name of the client certificate presented, when one was. */
  readonly clientName: string | undefined;
}

export interface TlsService {
  /** Such as `https://127.0.0.1:41234/api`. */
  readonly baseUrl: string;
  /** Such as `127.0.0.1:41234`, as a proxy's CONNECT names it. */
  readonly host: string;
  requests(): TlsServiceRequest[];
  /** How many connections it accepted: one per attempt, even one its TLS handshake ended. */
  connections(): number;
  close(): Promise<void>;
}

/** Starts the service on a free loopback port with the CA's server certificate. */
export async function startTlsService(
  ca: PrivateCa,
  { requireClientCertificate = false, expired = false } = {},
): Promise<TlsService> {
  const seen: TlsServiceRequest[] = [];
  const server: Server = createServer(
    {
      key: ca.serverKey,
      cert: expired ? ca.expiredServerCert : ca.serverCert,
      ...(requireClientCertificate && {
        ca: ca.caCert,
        requestCert: true,
        rejectUnauthorized: true,
      }),
    },
    (request, response) => {
      const peer = (request.socket as TLSSocket).getPeerCertificate();
      const clientName = typeof peer?.subject?.CN === 'string' ? peer.subject.CN : undefined;
      seen.push({ path: request.url ?? '', headers: request.headers, clientName });
      const id = /^\/api\/v1\/projects\/([^/]+)$/.exec(request.url ?? '')?.[1];
      response.setHeader('x-request-id', `req_tls_${seen.length}`);
      if (request.method !== 'GET' || id === undefined) {
        response.statusCode = 404;
        response.setHeader('content-type', 'application/json');
        response.end('{"error":{"type":"not_found","message":"No such route"}}');
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id,
          name: 'Behind TLS',
          agentId: 'agent_1',
          status: 'active',
          metadata: {},
          createdAt: '2026-11-26T08:00:00.000Z',
        }),
      );
    },
  );
  let connections = 0;
  server.on('connection', () => {
    connections++;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `https://127.0.0.1:${port}/api`,
    host: `127.0.0.1:${port}`,
    requests: () => [...seen],
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
