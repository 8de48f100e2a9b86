/**
 * The browser example: its page bundles with esbuild into a small browser-only script, and its
 * backend passes the page's calls to the service with the server's key, and nothing else.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBackend, PROXY_PREFIX } from '../../examples/browser/backend.js';
import { buildApp } from '../../examples/browser/build.js';
import { Client } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

const SERVER_KEY = 'sk_server_only_3b8e0f';

let bundle: string;
let inputs: string[];
let site: string;
let mock: MockServer;
let backend: Server;
let origin: string;

beforeAll(async () => {
  const result = await buildApp({ write: false });
  expect(result.errors).toEqual([]);
  expect(result.warnings).toEqual([]);
  bundle = result.outputFiles?.[0]?.text ?? '';
  inputs = Object.keys(result.metafile.inputs);

  // The site as the backend serves it: index.html and the freshly built dist/app.js.
  site = await mkdtemp(join(tmpdir(), 'agentchat-browser-example-'));
  await mkdir(join(site, 'dist'));
  await writeFile(join(site, 'dist', 'app.js'), bundle);
  await copyFile(
    new URL('../../examples/browser/index.html', import.meta.url),
    join(site, 'index.html'),
  );

  mock = await startMockServer({ apiKeys: [SERVER_KEY] });
  backend = createBackend({ apiKey: SERVER_KEY, baseUrl: mock.baseUrl, siteDir: site });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  backend?.closeAllConnections();
  await new Promise((resolve) => backend?.close(resolve));
  await mock?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

/** The page's client, as app.ts builds it, but in Node and pointed at the test's backend. */
const pageClient = () =>
  new Client({ baseUrl: `${origin}${PROXY_PREFIX}`, apiKey: 'set-by-backend', maxRetries: 1 });

describe('the browser example bundle', () => {
  it('holds the client and the page code, and nothing for Node or tests', () => {
    expect(inputs).toContain('examples/browser/app.ts');
    expect(inputs).toContain('src/client.ts');
    expect(inputs.filter((file) => /msw|src\/testing|node:/.test(file))).toEqual([]);
    expect(bundle).not.toMatch(/from\s*["']node:|require\(/);
  });

  it('stays small: under 31 KiB gzipped', () => {
    // Measured at 29.9 KiB with ky 2.2 (about 11 KiB of it; zod/mini about 6), the page's own code
    // and the SDK's, the cause scrubbing among it. A jump means a heavy import, such as zod's
    // classic API with all its locales.
    expect(gzipSync(bundle).length).toBeLessThan(31 * 1024);
  });
});

describe('the browser example backend', () => {
  beforeEach(() => mock.service.reset());

  it('serves the page and its script', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<script type="module" src="./app.js"></script>');
    const script = await fetch(`${origin}/app.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(await script.text()).toBe(bundle);
  });

  it("passes the page's calls on with the server's key", async () => {
    const client = pageClient();
    const project = await client.projects.create({ name: 'Visitor', agentId: 'agent_support' });
    const reply = await client.chat
      .send({ projectId: project.id, message: 'Hello!' })
      .withResponse();

    expect(reply.data.message).toContain('agent_support');
    expect(reply.requestId).toMatch(/^req_/);
    const seen = mock.service.requests.map((r) => r.headers.authorization);
    expect(seen).toEqual([`Bearer ${SERVER_KEY}`, `Bearer ${SERVER_KEY}`]);
    expect(mock.service.requests[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("passes the service's retry hints back, so the page's client retries", async () => {
    mock.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });

    const project = await pageClient().projects.create({ name: 'Visitor', agentId: 'agent_1' });

    expect(project.status).toBe('active');
    expect(mock.service.requests.map((r) => r.status)).toEqual([503, 201]);
  });

  it('refuses every other route without calling the service', async () => {
    const attempts = [
      fetch(`${origin}${PROXY_PREFIX}/v1/projects`, { method: 'GET' }),
      fetch(`${origin}${PROXY_PREFIX}/v1/projects/proj_1`, { method: 'DELETE' }),
      fetch(`${origin}${PROXY_PREFIX}/v2/anything`, { method: 'POST', body: '{}' }),
      fetch(`${origin}/elsewhere`),
    ];
    const statuses = (await Promise.all(attempts)).map((response) => response.status);

    expect(statuses).toEqual([404, 404, 404, 404]);
    expect(mock.service.requests).toEqual([]);
  });

  it('refuses a body over 64 KB', async () => {
    const response = await fetch(`${origin}${PROXY_PREFIX}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(70_000), agentId: 'agent_1' }),
    });

    expect(response.status).toBe(413);
    expect(mock.service.requests).toEqual([]);
  });
});
