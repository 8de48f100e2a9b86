/**
 * An identity provider and a service on one HTTP server on 127.0.0.1, answering as a test scripts
 * them: issuer metadata at `/.well-known/oauth-authorization-server`, a token endpoint at `/token`
 * and the service's `GET /api/v1/projects/{id}`. It records what each request carried (headers,
 * form fields) and every token it issued, so that a test can search what the SDK published for
 * every secret that crossed the wire.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from '../helpers/keep-alive.js';

/** One request as the server read it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The form body's fields, for a token request. */
  readonly form: URLSearchParams;
}

/** How the token endpoint answers one request: a status and a JSON body. */
export interface TokenAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers?: Record<string, string>;
}

export interface TokenServer {
  /** The issuer identifier, `http://127.0.0.1:<port>`, whose metadata names `tokenUrl`. */
  readonly issuer: string;
  readonly tokenUrl: string;
  /** The service's base URL, `<issuer>/api`. */
  readonly baseUrl: string;
  /** Every request since the start or the last `reset`, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Every access and refresh token the token endpoint issued. */
  readonly issued: readonly string[];
  /**
   * Answers the next token requests with these, in order, then with a fresh token again. A
   * function gets a fresh token to put in its answer.
   */
  answer(...answers: (TokenAnswer | ((token: string) => TokenAnswer))[]): void;
  reset(): void;
  close(): Promise<void>;
}

/** A fresh token, as unguessable as a real one, and unlike any other string of the test. */
export function freshToken(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}

/**
 * A string shaped as a signed JWT, unique to the run: what a platform hands a workload, for a
 * server that does not verify it.
 */
export function identityToken(): string {
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
  return `${header}.${freshToken('payload')}.${freshToken('signature')}`;
}

/** A successful answer holding `token`, `Bearer` and an hour's lifetime, with any `extra` fields. */
export function issuedToken(token: string, extra: Record<string, unknown> = {}): TokenAnswer {
  return {
    status: 200,
    body: { access_token: token, token_type: 'Bearer', expires_in: 3600, ...extra },
  };
}

const project = {
  id: 'proj_1',
  name: 'P',
  agentId: 'a',
  status: 'active',
  metadata: {},
  createdAt: '2026-01-01T00:00:00Z',
};

export async function startTokenServer(): Promise<TokenServer> {
  let requests: RecordedRequest[] = [];
  let issued: string[] = [];
  let queue: (TokenAnswer | ((token: string) => TokenAnswer))[] = [];
  let origin = '';

  const server = keepIdleConnections(
    createServer((req, res) => {
      res.on('error', () => {});
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        requests.push({ method: req.method ?? '', path, headers: req.headers, form });
        const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(body));
        };
        if (path === '/.well-known/oauth-authorization-server') {
          send(200, { issuer: origin, token_endpoint: `${origin}/token` });
        } else if (path === '/token' && req.method === 'POST') {
          const next = queue.shift() ?? issuedToken;
          const token = freshToken('at');
          const answer = typeof next === 'function' ? next(token) : next;
          for (const field of ['access_token', 'refresh_token']) {
            const value = answer.body[field];
            if (typeof value === 'string') issued.push(value);
          }
          send(answer.status, answer.body, answer.headers);
        } else if (path.startsWith('/api/v1/projects/')) {
          send(200, project, { 'x-request-id': 'req_1' });
        } else {
          send(404, { error: 'not_found' });
        }
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer: origin,
    tokenUrl: `${origin}/token`,
    baseUrl: `${origin}/api`,
    get requests() {
      return requests;
    },
    get issued() {
      return issued;
    },
    answer(...answers) {
      queue = answers;
    },
    reset() {
      requests = [];
      issued = [];
      queue = [];
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The secrets a token request carried: its Authorization header and its credential fields. */
export function sentSecrets(requests: readonly RecordedRequest[]): string[] {
  const fields = ['client_secret', 'client_assertion', 'assertion', 'subject_token', 'actor_token'];
  return requests.flatMap(({ headers, form }) => [
    // The credentials after the scheme: a Basic pair's Base64, a bearer token.
    ...(headers.authorization ? [headers.authorization.replace(/^\S+\s+/, '')] : []),
    ...fields.flatMap((field) => form.getAll(field)),
  ]);
}
