/**
 * What `agentchat-mcp --http --upstream-issuer` (a child process) fetches for a stranger. A Client
 * ID Metadata Document is served on every address of this machine (its unique-local IPv6
 * `fd00::2`, its TEST-NET IPv4 `192.0.2.2`, loopback) and named by every spelling of a special-use
 * address, and by DNS names resolving to them (test/helpers/resolve-test-hosts.mjs, in the child):
 * the server counts the connections it gets, and none is made. A registration naming a URL the
 * engine would fetch later is refused, and that URL never hears from the front. A slow document
 * is fetched once per authorization, not once per look-up.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Server as TcpServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_BURST } from '../../src/mcp/front/engine.js';
import { type DocumentServer, startDocumentServer } from '../helpers/document-server.js';
import { type FrontProcess, startFrontProcess } from '../helpers/front-process.js';
import { postFrom, registrationsFrom } from '../helpers/sign-in-front.js';
import { authorizationUrl, startRedirectTarget } from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_front_fetches_6d1f';
const resolveTestHosts = fileURLToPath(
  new URL('../helpers/resolve-test-hosts.mjs', import.meta.url),
);

/** Names the child resolves to special-use addresses of this machine. */
const TEST_HOSTS = {
  'unique-local.agentchat.test': 'fd00::2',
  'test-net.agentchat.test': '192.0.2.2',
  'loopback.agentchat.test': '127.0.0.1',
  'mapped.agentchat.test': '::ffff:192.0.2.2',
};

/** Metadata documents listing, beside a good redirect URI, one a code must never go to. */
const UNSAFE_REDIRECTS: Record<string, string> = {
  '/plain-http.json': 'http://evil.example/cb',
  '/userinfo.json': 'https://trusted.example@evil.example/cb',
  '/script.json': 'javascript:alert(1)//',
};

let front: FrontProcess;
let origin: string;
let redirect: { url: string; server: Server };
/** The metadata documents, on every address of this machine (`::`, dual-stack). */
let documents: DocumentServer;
let documentsPort: number;
/** Each connection the documents' server accepted, by the address it was made to. */
const connections: string[] = [];
let documentRequests: readonly string[];
/** A plain-http server standing for an internal URL a client would have the front fetch. */
let internal: Server;
let internalOrigin: string;
const internalRequests: string[] = [];

beforeAll(async () => {
  redirect = await startRedirectTarget();
  documents = await startDocumentServer('::', (req, res) => {
    // Held longer than the engine's bound: the front gives up first.
    if (req.url === '/slow.json') return;
    if (req.url === '/key-set-url.json') {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          client_id: `https://127.0.0.1:${documentsPort}${req.url}`,
          client_name: 'Key Set URL Host',
          redirect_uris: [redirect.url],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: `${internalOrigin}/jwks`,
        }),
      );
    }
    const unsafe = UNSAFE_REDIRECTS[req.url ?? ''];
    if (unsafe !== undefined) {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          client_id: `https://127.0.0.1:${documentsPort}${req.url}`,
          client_name: 'Unsafe Redirect Host',
          redirect_uris: [redirect.url, unsafe],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
    }
    res.writeHead(404).end();
  });
  // Counted as TCP connections, before any TLS: a refused fetch makes none at all.
  const tcp: TcpServer = documents.server;
  tcp.on('connection', (socket) => connections.push(socket.localAddress ?? ''));
  documentsPort = documents.port;
  documentRequests = documents.requests;
  internal = createServer((req, res) => {
    internalRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalOrigin = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;

  front = await startFrontProcess({
    serverKey: SERVER_KEY,
    nodeArguments: ['--import', resolveTestHosts],
    // A proxy on this machine at 127.0.0.10, whose X-Forwarded-For the front believes.
    binArguments: ['--trusted-proxy', '127.0.0.10'],
    env: {
      NODE_EXTRA_CA_CERTS: documents.certificate.certFile,
      TEST_HOST_ADDRESSES: Object.entries(TEST_HOSTS)
        .map(([name, address]) => `${name}=${address}`)
        .join(','),
    },
  });
  origin = front.origin;
}, 60_000);
afterAll(async () => {
  await front?.close();
  await documents?.close();
  internal?.closeAllConnections();
  internal?.close();
  redirect?.server.close();
});

/** Starts an authorization whose `client_id` is `clientId`: the front's answer. */
async function authorize(clientId: string): Promise<Response> {
  return fetch(authorizationUrl(origin, clientId, redirect.url), { redirect: 'manual' });
}

describe('the sign-in front fetches only what it chose', { timeout: 60_000 }, () => {
  it.each([
    ['its unique-local IPv6 address', `[fd00::2]`],
    ['its TEST-NET IPv4 address', '192.0.2.2'],
    ['that address IPv4-mapped', '[::ffff:192.0.2.2]'],
    ['that address IPv4-mapped in hex', '[::ffff:c000:202]'],
    ['that address in decimal', '3221225986'],
    ['that address in hex', '0xc0.0x0.0x2.0x2'],
    ['that address in octal', '0300.0.02.02'],
    ['0.0.0.0, which reaches this machine', '0.0.0.0'],
    ['a DNS name resolving to the unique-local address', 'unique-local.agentchat.test'],
    ['a DNS name resolving to the TEST-NET address', 'test-net.agentchat.test'],
    ['a DNS name resolving to an IPv4-mapped address', 'mapped.agentchat.test'],
    ['a DNS name resolving to loopback, not naming this machine', 'loopback.agentchat.test'],
  ])('refuses a metadata document at %s, connecting to nothing', async (_name, host) => {
    const before = connections.length;
    const response = await authorize(`https://${host}:${documentsPort}/host.json`);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toMatch(/invalid_client/);
    expect(connections.slice(before)).toEqual([]);
  });

  it.each([
    ['jwks_uri', { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: '/jwks' }],
    ['sector_identifier_uri', { sector_identifier_uri: '/sector.json' }],
    ['request_uris', { request_uris: ['/request.jwt'] }],
  ])('refuses a registration naming %s, and never fetches it', async (name, extra) => {
    const metadata = Object.fromEntries(
      Object.entries(extra).map(([key, value]) => [
        key,
        typeof value === 'string' && value.startsWith('/')
          ? `${internalOrigin}${value}`
          : Array.isArray(value)
            ? value.map((path) => `${internalOrigin}${path}`)
            : value,
      ]),
    );
    const response = await fetch(`${origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Fetching Host',
        redirect_uris: [redirect.url],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...metadata,
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_client_metadata');
    expect(body.error_description).toContain(name);
    // A client assertion for a client of that name gets nowhere near the URL either.
    await fetch(`${origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'x',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln',
      }),
    });
    expect(internalRequests).toEqual([]);
  });

  it('registers a private_key_jwt client that gives its keys inline', async () => {
    const response = await fetch(`${origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Inline Keys Host',
        redirect_uris: [redirect.url],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: {
          keys: [
            {
              kty: 'EC',
              crv: 'P-256',
              x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
              y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
            },
          ],
        },
      }),
    });
    expect(response.status).toBe(201);
  });

  it.each(Object.entries(UNSAFE_REDIRECTS))(
    'refuses a metadata document (%s) listing the redirect URI %s',
    async (path) => {
      const response = await authorize(`https://127.0.0.1:${documentsPort}${path}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('invalid_redirect_uri');
    },
  );

  it('refuses a metadata document naming a jwks_uri, and never fetches it', async () => {
    const response = await authorize(`https://127.0.0.1:${documentsPort}/key-set-url.json`);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const page = await response.text();
    expect(page).toContain('invalid_client_metadata');
    expect(page).toContain('jwks_uri');
    expect(internalRequests).toEqual([]);
  });

  it('counts registrations per caller address, as its listener and --trusted-proxy tell them', async () => {
    const metadata = JSON.stringify({
      client_name: 'Flooding Host',
      redirect_uris: [redirect.url],
      token_endpoint_auth_method: 'none',
    });
    const flood = await registrationsFrom(
      origin,
      Array.from({ length: REGISTRATION_BURST + 5 }, () => '/register/'),
      metadata,
      { localAddress: '127.0.0.2' },
    );
    expect(flood.accepted).toBeLessThanOrEqual(flood.allowed);
    expect(flood.statuses).toContain(429);
    const other = await postFrom(origin, '/register', metadata, { localAddress: '127.0.0.3' });
    expect(other.status).toBe(201);
    // Through the trusted proxy (--trusted-proxy 127.0.0.10), the caller it names counts.
    const proxied = await registrationsFrom(
      origin,
      Array.from({ length: REGISTRATION_BURST + 5 }, () => '/register'),
      metadata,
      { localAddress: '127.0.0.10', headers: () => ({ 'x-forwarded-for': '198.51.100.1' }) },
    );
    expect(proxied.accepted).toBeLessThanOrEqual(proxied.allowed);
    expect(proxied.statuses).toContain(429);
    const behindProxy = await postFrom(origin, '/register', metadata, {
      localAddress: '127.0.0.10',
      headers: { 'x-forwarded-for': '198.51.100.2' },
    });
    expect(behindProxy.status).toBe(201);
  });

  it('fetches a slow document once per authorization, within its bound', async () => {
    const before = documentRequests.length;
    const response = await authorize(`https://127.0.0.1:${documentsPort}/slow.json`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/invalid_client/);
    expect(documentRequests.slice(before)).toEqual(['/slow.json']);
  });
});
