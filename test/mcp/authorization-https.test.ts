/**
 * `agentchat-mcp --http --authorization-server <https issuer>` whose metadata names its key set
 * or its introspection endpoint on plain http, on a host other than loopback: the issuer is
 * unusable (503, one log line naming the URL), and nothing is sent there, the introspection
 * secret least of all. The issuer is https with a certificate made for the test (trusted by the
 * child process through NODE_EXTRA_CA_CERTS); the plain-http server is on 127.0.0.1, reached
 * under the name `keys.agentchat.test` (RFC 6761's reserved `.test`), which the child process
 * resolves to 127.0.0.1 through test/helpers/resolve-test-hosts.mjs, as /etc/hosts may not be
 * edited by a test. A control shows that name reaching the server, and an issuer whose URLs are
 * all https letting the same token in, so that the 503 can only come from the rule.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { type EntraLikeIssuer, startEntraLikeIssuer } from '../helpers/entra-like-issuer.js';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';
import { makeTestCertificate, type TestCertificate } from '../helpers/test-certificate.js';

const SERVER_KEY = 'sk_mcp_https_own_key_0b7e31';
const INTROSPECTION_SECRET = 'introspection-secret-never-in-clear-5d2f';
const KEYS_HOST = 'keys.agentchat.test';
const repo = fileURLToPath(new URL('../..', import.meta.url));
const resolveTestHosts = fileURLToPath(
  new URL('../helpers/resolve-test-hosts.mjs', import.meta.url),
);

let certificate: TestCertificate;
let service: MockServer;
let plainHttp: Server;
let plainHttpRequests: { url: string; headers: IncomingHttpHeaders }[];
let plainHttpOrigin: string;
/** An https issuer whose URLs are all https: the control. */
let secure: EntraLikeIssuer;
/** An https issuer whose metadata names the plain-http key set and introspection endpoint. */
let downgraded: EntraLikeIssuer;
const started: McpHttpProcess[] = [];

/** The environment of every child process: the certificate trusted, the test name resolved. */
const childEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  NODE_EXTRA_CA_CERTS: certificate.certFile,
  TEST_HOST_ADDRESSES: `${KEYS_HOST}=127.0.0.1`,
});

async function startBin(
  issuer: EntraLikeIssuer,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<McpHttpProcess> {
  const server = await startMcpHttp(
    process.execPath,
    [
      ...tsxLoader,
      ...['--import', resolveTestHosts, 'src/mcp/bin.ts', '--http', '--port', '0'],
      ...['--authorization-server', issuer.issuer, '--audience', issuer.applicationId],
      ...['--read-scope', 'agentchat.read', '--write-scope', 'agentchat.write', ...args],
    ],
    {
      cwd: repo,
      env: {
        ...childEnv(),
        AGENTCHAT_BASE_URL: service.baseUrl,
        AGENTCHAT_API_KEY: SERVER_KEY,
        ...env,
      },
    },
  );
  started.push(server);
  return server;
}

function listTools(server: McpHttpProcess, token: string): Promise<Response> {
  return fetch(server.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

beforeAll(async () => {
  certificate = await makeTestCertificate();
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
  plainHttpRequests = [];
  let keySet: object = { keys: [] };
  plainHttp = createServer((request, response) => {
    plainHttpRequests.push({ url: request.url ?? '', headers: request.headers });
    // What a server in the middle would serve: a key set the token verifies against, and an
    // answer that the token is active.
    const body = request.url?.startsWith('/introspect')
      ? { active: true, scope: 'agentchat.read', exp: Math.floor(Date.now() / 1000) + 600 }
      : keySet;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => plainHttp.listen(0, '127.0.0.1', resolve));
  plainHttpOrigin = `http://${KEYS_HOST}:${(plainHttp.address() as AddressInfo).port}`;
  secure = await startEntraLikeIssuer({ tls: certificate });
  downgraded = await startEntraLikeIssuer({
    tls: certificate,
    metadata: {
      jwks_uri: `${plainHttpOrigin}/keys`,
      introspection_endpoint: `${plainHttpOrigin}/introspect`,
    },
  });
  keySet = downgraded.keySet;
}, 30_000);

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  await new Promise((resolve) => plainHttp?.close(resolve));
  await Promise.all([secure?.close(), downgraded?.close(), service?.close()]);
  await certificate?.remove();
});

describe('an https issuer naming plain-http URLs off loopback', { timeout: 60_000 }, () => {
  it('control: the test name reaches the plain-http server, and an all-https issuer works', async () => {
    const control = await runProcess(
      process.execPath,
      [
        ...['--import', resolveTestHosts, '--input-type=module', '-e'],
        `const answer = await fetch('${plainHttpOrigin}/control'); process.stdout.write(String(answer.status));`,
      ],
      { env: childEnv() },
    );
    expect(control.stdout).toBe('200');
    expect(plainHttpRequests.map((request) => request.url)).toEqual(['/control']);
    expect(plainHttpRequests[0]?.headers.host).toBe(plainHttpOrigin.slice('http://'.length));
    plainHttpRequests = [];

    const server = await startBin(secure);
    const token = await secure.token({ scp: 'agentchat.read' });
    expect((await listTools(server, token)).status).toBe(200);
  });

  it('answers 503 for its key set, logs the URL once, and fetches nothing over http', async () => {
    const server = await startBin(downgraded);
    // Signed by the very key the plain-http server would hand out: only the rule refuses it.
    const token = await downgraded.token({ scp: 'agentchat.read' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await listTools(server, token);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBeTruthy();
      expect(JSON.stringify(await answer.json())).toMatch(/jwks_uri is not https/);
    }
    expect(plainHttpRequests).toEqual([]);
    const lines = server.stderr().split('\n');
    const named = lines.filter((line) => line.includes(`${plainHttpOrigin}/keys`));
    expect(named).toEqual([
      expect.stringMatching(
        new RegExp(
          `^agentchat-mcp: the authorization server ${downgraded.issuer} is unusable: its metadata names jwks_uri "`,
        ),
      ),
    ]);
  });

  it('answers 503 for its introspection endpoint, and never sends the secret', async () => {
    const server = await startBin(downgraded, ['--introspection'], {
      AGENTCHAT_INTROSPECTION_CLIENT_ID: 'agentchat-mcp',
      AGENTCHAT_INTROSPECTION_CLIENT_SECRET: INTROSPECTION_SECRET,
    });
    const answer = await listTools(server, 'an-opaque-token-to-introspect');
    expect(answer.status).toBe(503);
    expect(JSON.stringify(await answer.json())).toMatch(/introspection_endpoint is not https/);
    expect(plainHttpRequests).toEqual([]);
    expect(server.stderr()).toContain(`introspection_endpoint "${plainHttpOrigin}/introspect"`);
    expect(server.stderr()).not.toContain(INTROSPECTION_SECRET);
  });
});
