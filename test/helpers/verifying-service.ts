/**
 * The service as a resource server of a real authorization server: the mock service behind a front
 * on 127.0.0.1 that lets a request through only with an RFC 9068 access token the authorization
 * server signed (its key set, its issuer, `aud` the resource: verified with jose), and answers
 * 401 otherwise. What a call proves through it is that the token the SDK got is one the service
 * accepts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

/** Headers of one connection, or of a body fetch decodes: never passed on. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
]);

/** A running service and what reached it. */
export interface VerifyingService {
  /** What a client takes as `baseUrl`. */
  readonly baseUrl: string;
  /** Requests that reached the front, by outcome. */
  readonly counts: { accepted: number; refused: number };
  readonly mock: MockServer;
  close(): Promise<void>;
}

/** Starts the mock and its front, trusting `issuer`'s tokens for `resource`. */
export async function startVerifyingService(
  issuer: string,
  resource: string,
): Promise<VerifyingService> {
  const mock = await startMockServer();
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const counts = { accepted: 0, refused: 0 };
  const front: Server = createServer(async (req, res) => {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    try {
      if (token === undefined) throw new Error('no token');
      await jwtVerify(token, keys, { issuer, audience: resource, algorithms: ['ES256'] });
    } catch {
      counts.refused++;
      res.writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': 'Bearer error="invalid_token"',
      });
      res.end(
        JSON.stringify({ error: { type: 'authentication_error', message: 'Invalid token' } }),
      );
      return;
    }
    counts.accepted++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    // The request as the client sent it, but for what belongs to the hop (fetch sets those).
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        (entry): entry is [string, string] =>
          typeof entry[1] === 'string' && !HOP_HEADERS.has(entry[0]),
      ),
    );
    const answer = await fetch(`${mock.url}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : null,
    });
    const answered = [...answer.headers].filter(([name]) => !HOP_HEADERS.has(name));
    res.writeHead(answer.status, Object.fromEntries(answered));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/api`,
    counts,
    mock,
    close: async () => {
      await new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      });
      await mock.close();
    },
  };
}
