/**
 * The site's backend: serves the page and passes the page's agentchat calls on to the service,
 * adding the API key, which never leaves the server.
 *
 *   npx tsx examples/browser/build.ts      # bundle app.ts into examples/browser/dist/
 *   AGENTCHAT_API_KEY=sk_... AGENTCHAT_BASE_URL=https://host/api npx tsx examples/browser/backend.ts
 *   open http://127.0.0.1:3000
 *
 * Only the three operations the page needs pass, and a real site would first check the
 * visitor's session (`authorize` below), so the backend is not an open relay for your key.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the backend needs: the secret key, where the service is, and the files to serve. */
export interface BackendOptions {
  /** The service's API key. It stays on the server. */
  apiKey: string;
  /** The service root before `/v1`, such as `https://host/api`. */
  baseUrl: string;
  /** The folder holding index.html and dist/app.js. */
  siteDir: string;
  /** Decides whether a request may use the service; check the visitor's session cookie here. */
  authorize?: (request: IncomingMessage) => boolean | Promise<boolean>;
}

/** The route the page's client uses as its `baseUrl`. */
export const PROXY_PREFIX = '/agentchat';

/** The operations the page may call, and nothing else. */
const ALLOWED = [
  { method: 'POST', path: /^\/v1\/projects$/ },
  { method: 'GET', path: /^\/v1\/projects\/[^/]+$/ },
  { method: 'POST', path: /^\/v1\/projects\/[^/]+\/chat$/ },
];

/** Request headers worth passing on. Cookies and the page's Authorization are not among them. */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'idempotency-key'];
/** Response headers the page's client reads: request ids and the service's retry hints. */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'x-request-id',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
];
const MAX_BODY_BYTES = 64 * 1024;

const STATIC_FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'dist/app.js', type: 'text/javascript; charset=utf-8' },
};

/** Creates the backend's HTTP server; call `listen` on it. */
export function createBackend(options: BackendOptions): Server {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const authorize = options.authorize ?? (() => true);

  return createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) send(response, 502, { error: { message: 'Bad gateway' } });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://backend.invalid');
    const page = STATIC_FILES[url.pathname];
    if (request.method === 'GET' && page) {
      const body = await readFile(join(options.siteDir, page.file));
      response.writeHead(200, { 'content-type': page.type }).end(body);
      return;
    }
    if (!url.pathname.startsWith(`${PROXY_PREFIX}/`)) {
      send(response, 404, { error: { message: 'Not found' } });
      return;
    }
    const path = url.pathname.slice(PROXY_PREFIX.length);
    if (!ALLOWED.some((route) => route.method === request.method && route.path.test(path))) {
      send(response, 404, { error: { message: `No route for ${request.method} ${path}` } });
      return;
    }
    if (!(await authorize(request))) {
      send(response, 401, { error: { message: 'Sign in first' } });
      return;
    }
    const body = await readBody(request);
    if (body === undefined) {
      send(response, 413, { error: { message: 'Request body too large' } });
      return;
    }

    const headers = new Headers({ authorization: `Bearer ${options.apiKey}` });
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const upstream = await fetch(baseUrl + path, {
      method: request.method ?? 'GET',
      headers,
      ...(request.method === 'POST' ? { body: body.toString('utf8') } : {}),
      // The page's client times out and retries on its own; give up when the page does.
      signal: abortedWhenClosed(response),
    });

    const answer: Record<string, string> = {};
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) answer[name] = value;
    }
    response.writeHead(upstream.status, answer).end(Buffer.from(await upstream.arrayBuffer()));
  }
}

/** The request body, or `undefined` when it is larger than MAX_BODY_BYTES. */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Aborts when the page's connection closes before its answer is written. */
function abortedWhenClosed(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

// Run as a script: listen on port 3000 (or PORT) with the key and URL from the environment.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const apiKey = process.env.AGENTCHAT_API_KEY;
  const baseUrl = process.env.AGENTCHAT_BASE_URL;
  if (!apiKey || !baseUrl) {
    console.error('Set AGENTCHAT_API_KEY and AGENTCHAT_BASE_URL first.');
    process.exit(1);
  }
  const siteDir = fileURLToPath(new URL('.', import.meta.url));
  const port = Number(process.env.PORT ?? 3000);
  createBackend({ apiKey, baseUrl, siteDir }).listen(port, '127.0.0.1', () => {
    console.log(`Open http://127.0.0.1:${port}`);
  });
}
