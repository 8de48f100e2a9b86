/**
 * agentchat-mcp --http as remote agents meet it: child processes serving MCP Streamable HTTP on
 * 127.0.0.1, spoken to by the official MCP client over StreamableHTTPClientTransport (and by raw
 * HTTP where a browser or a rebound DNS name would come from), calling the mock service.
 */
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  allToolNames,
  callTool,
  connectRecorded,
  listedToolNames,
  textOf,
} from '../helpers/mcp-client.js';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

const KEY_A = 'sk_mcp_http_a_51c9e7';
const KEY_B = 'sk_mcp_http_b_a04d3f';
const repo = fileURLToPath(new URL('../..', import.meta.url));
/** The bin from source, as `npx tsx src/mcp/bin.ts` would run it. */
const bin = [...tsxLoader, 'src/mcp/bin.ts'];

let service: MockServer;
/** Two replicas of a pass-through server, as behind a load balancer. */
let replicas: McpHttpProcess[];

function startBin(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<McpHttpProcess> {
  return startMcpHttp(process.execPath, [...bin, '--http', '--port', '0', ...args], {
    cwd: repo,
    env: { PATH: process.env.PATH, AGENTCHAT_BASE_URL: service.baseUrl, ...env },
  });
}

/** The official MCP client over Streamable HTTP, sending `key` as the service key. */
function connect(url: string, key?: string, fetch?: typeof globalThis.fetch) {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  return connectRecorded(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      ...(fetch && { fetch }),
    }),
  );
}

/** A raw POST to the endpoint, with headers of our choosing (Host included, which fetch forbids). */
function rawPost(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });
}

beforeAll(async () => {
  service = await startMockServer({ apiKeys: [KEY_A, KEY_B] });
  replicas = await Promise.all([
    startBin(['--allowed-origin', 'https://app.example.com']),
    startBin([]),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.stop()));
  await service?.close();
});
beforeEach(() => service.service.reset());

describe('agentchat-mcp --http with pass-through keys', { timeout: 30_000 }, () => {
  it('prints its endpoint and answers GET /health', async () => {
    const [first] = replicas as [McpHttpProcess];
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const health = await fetch(new URL('/health', first.url));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // Idle connections kept a minute: fetch lets go of them well before the server does.
    expect(health.headers.get('keep-alive')).toBe('timeout=60');
  });

  it("runs the three tools with the caller's key, which reaches the service", async () => {
    const { mcp } = await connect(replicas[0]?.url as string, KEY_A);
    try {
      expect(await listedToolNames(mcp)).toEqual(allToolNames);
      const created = await callTool(mcp, 'create_project', { name: 'Remote', agentId: 'agent_1' });
      expect(created.isError).toBeFalsy();
      const { id } = created.structuredContent as { id: string };
      const read = await callTool(mcp, 'get_project', { id });
      expect(read.structuredContent).toMatchObject({ id, name: 'Remote', agentId: 'agent_1' });
      const reply = await callTool(mcp, 'send_message', { projectId: id, message: 'Hello' });
      expect(reply.isError).toBeFalsy();
      expect(reply.structuredContent).toMatchObject({ message: expect.any(String) });
    } finally {
      await mcp.close();
    }
    const authorizations = service.service.requests.map((r) => r.headers.authorization);
    expect(authorizations).toEqual([`Bearer ${KEY_A}`, `Bearer ${KEY_A}`, `Bearer ${KEY_A}`]);
  });

  it("uses each caller's own key, request by request", async () => {
    const a = await connect(replicas[0]?.url as string, KEY_A);
    const b = await connect(replicas[0]?.url as string, KEY_B);
    try {
      await callTool(a.mcp, 'get_project', { id: 'proj_a' });
      await callTool(b.mcp, 'get_project', { id: 'proj_b' });
    } finally {
      await Promise.all([a.mcp.close(), b.mcp.close()]);
    }
    expect(service.service.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/api/v1/projects/proj_a', `Bearer ${KEY_A}`],
      ['/api/v1/projects/proj_b', `Bearer ${KEY_B}`],
    ]);
  });

  it('gives service errors as tool errors', async () => {
    const { mcp } = await connect(replicas[0]?.url as string, KEY_A);
    try {
      const missing = await callTool(mcp, 'get_project', { id: 'proj_missing' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/^NotFoundError: .*proj_missing.*\(request id req_\w+\)$/);
    } finally {
      await mcp.close();
    }
  });

  it('gives a wrong key as a tool error that never repeats it', async () => {
    const wrongKey = 'sk_wrong_7f3a19b2c4';
    const { mcp, transport } = await connect(replicas[0]?.url as string, wrongKey);
    try {
      const result = await callTool(mcp, 'get_project', { id: 'proj_1' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^AuthenticationError: /);
    } finally {
      await mcp.close();
    }
    expect(service.service.requests[0]?.headers.authorization).toBe(`Bearer ${wrongKey}`);
    // Only the client's own requests carry it: nothing the server sent back does.
    const answers = transport.messages.filter((message) => !('method' in message));
    expect(JSON.stringify(answers)).not.toContain(wrongKey);
    expect(replicas[0]?.stderr()).not.toContain(wrongKey);
  });

  it('answers a request without a key 401 with WWW-Authenticate: Bearer', async () => {
    const response = await rawPost(replicas[0]?.url as string, {});
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(service.service.requests).toEqual([]);
  });

  it('refuses a browser Origin not allowed with 403, and lets an allowed one through', async () => {
    const url = replicas[0]?.url as string;
    const auth = { authorization: `Bearer ${KEY_A}` };
    expect((await rawPost(url, { ...auth, origin: 'https://evil.example' })).status).toBe(403);
    expect((await rawPost(url, { ...auth, origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await rawPost(url, { ...auth, origin: 'https://app.example.com' })).status).toBe(200);
    // The other replica was given no --allowed-origin.
    const other = replicas[1]?.url as string;
    expect((await rawPost(other, { ...auth, origin: 'https://app.example.com' })).status).toBe(403);
  });

  it('refuses a Host that is not loopback on a loopback bind (DNS rebinding)', async () => {
    const url = replicas[0]?.url as string;
    const auth = { authorization: `Bearer ${KEY_A}` };
    const port = new URL(url).port;
    expect((await rawPost(url, { ...auth, host: `rebound.example:${port}` })).status).toBe(403);
    expect((await rawPost(url, { ...auth, host: `localhost:${port}` })).status).toBe(200);
  });

  it('serves one client from two replicas, its requests alternating between them', async () => {
    const urls = replicas.map((replica) => replica.url);
    const served = [0, 0];
    let next = 0;
    // A round-robin load balancer: every HTTP request goes to the other replica.
    const roundRobin: typeof globalThis.fetch = (input, init) => {
      const index = next++ % 2;
      served[index] = (served[index] as number) + 1;
      return fetch(urls[index] as string, init ?? (input as Request));
    };
    const { mcp } = await connect(urls[0] as string, KEY_A, roundRobin);
    try {
      const { tools } = await mcp.listTools();
      expect(tools).toHaveLength(3);
      const created = await callTool(mcp, 'create_project', { name: 'Balanced', agentId: 'a_1' });
      const { id } = created.structuredContent as { id: string };
      const read = await callTool(mcp, 'get_project', { id });
      expect(read.structuredContent).toMatchObject({ id, name: 'Balanced' });
      const reply = await callTool(mcp, 'send_message', { projectId: id, message: 'Hi' });
      expect(reply.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    expect(served[0]).toBeGreaterThanOrEqual(2);
    expect(served[1]).toBeGreaterThanOrEqual(2);
    expect(service.service.projects()).toHaveLength(1);
  });
});

describe('agentchat-mcp --http with a key of its own', { timeout: 30_000 }, () => {
  it('serves the read-only scope with its own key, callers sending none', async () => {
    const server = await startBin(['--read-only'], { AGENTCHAT_API_KEY: KEY_B });
    try {
      expect(server.stderr()).toContain("with this server's own key");
      const { mcp } = await connect(server.url);
      try {
        const { tools } = await mcp.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(['get_project']);
        const result = await callTool(mcp, 'get_project', { id: 'proj_1' });
        expect(textOf(result)).toMatch(/^NotFoundError/);
      } finally {
        await mcp.close();
      }
      expect(service.service.requests[0]?.headers.authorization).toBe(`Bearer ${KEY_B}`);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses a non-loopback --host without --allow-remote', async () => {
    const result = await runProcess(
      process.execPath,
      [...bin, '--http', '--port', '0', '--host', '0.0.0.0'],
      {
        cwd: repo,
        env: { PATH: process.env.PATH, AGENTCHAT_API_KEY: KEY_A, AGENTCHAT_BASE_URL: 'http://x' },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^agentchat-mcp: --host 0\.0\.0\.0 would let anyone .*--allow-remote\.$/m,
    );
    expect(result.stderr).not.toContain(KEY_A);
  });

  it('binds a non-loopback --host with --allow-remote', async () => {
    const server = await startBin(['--host', '0.0.0.0', '--allow-remote'], {
      AGENTCHAT_API_KEY: KEY_A,
    });
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    expect(await server.stop()).toBe(0);
  });
});

describe('stopping', { timeout: 30_000 }, () => {
  it('lets a call in flight finish on SIGTERM, then exits 0', async () => {
    const server = await startBin([]);
    const { mcp } = await connect(server.url, KEY_A);
    service.service.enqueue({ kind: 'delay', ms: 500 });
    const call = callTool(mcp, 'create_project', { name: 'Late', agentId: 'agent_1' });
    // Stopped once the call has reached the service, where it waits half a second.
    await expect.poll(() => service.service.requests.length).toBe(1);
    const started = Date.now();
    const exit = server.stop();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(await exit).toBe(0);
    // It exits once the call is answered, not after a keep-alive or the 5 s grace period.
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(service.service.projects()).toHaveLength(1);
    await mcp.close();
  });

  it('cuts off a call that never ends after the grace period, and exits 0', async () => {
    const server = await startBin([]);
    const { mcp } = await connect(server.url, KEY_A);
    service.service.enqueue({ kind: 'hang' });
    const call = callTool(mcp, 'get_project', { id: 'proj_1' }).then(
      (result) => ({ ended: 'result' as const, isError: result.isError }),
      () => ({ ended: 'error' as const, isError: true }),
    );
    await expect.poll(() => service.service.requests.length).toBe(1);
    const started = Date.now();

    expect(await server.stop()).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await call).isError).toBe(true);
    await mcp.close();
  });
});
