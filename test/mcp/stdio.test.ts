/**
 * The agentchat-mcp bin as an MCP host runs it: a child process spoken to over stdio by the
 * official MCP client, configured by its environment, calling the mock service on 127.0.0.1.
 */
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Client as McpClient } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { VERSION } from '../../src/version.js';
import {
  badArguments,
  callTool,
  connectRecorded,
  type RecordingTransport,
  textOf,
} from '../helpers/mcp-client.js';
import { runProcess, spawnWithInput, tsxLoader } from '../helpers/run-process.js';

const API_KEY = 'sk_mcp_stdio_0b7e4d21';
const repo = fileURLToPath(new URL('../..', import.meta.url));
/** The bin from source, as `npx tsx src/mcp/bin.ts` would run it. */
const bin = [...tsxLoader, 'src/mcp/bin.ts'];

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ apiKeys: [API_KEY] });
});
afterAll(() => server?.close());

describe('agentchat-mcp over stdio', { timeout: 30_000 }, () => {
  let mcp: McpClient;
  let transport: RecordingTransport;
  let stderr = '';

  beforeAll(async () => {
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: bin,
      cwd: repo,
      env: {
        AGENTCHAT_API_KEY: API_KEY,
        AGENTCHAT_BASE_URL: server.baseUrl,
        // Every attempt logged: the lines must go to stderr, never to the protocol's stdout.
        AGENTCHAT_LOG: 'debug',
      },
      stderr: 'pipe',
    });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    ({ mcp, transport } = await connectRecorded(stdio));
  }, 30_000);
  afterAll(() => mcp?.close());
  beforeEach(() => server.service.reset());

  it('lists the three tools', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'create_project',
      'get_project',
      'send_message',
    ]);
  });

  it('creates a project, reads it back and chats with its agent', async () => {
    const created = await callTool(mcp, 'create_project', {
      name: 'Over stdio',
      agentId: 'agent_stdio',
      metadata: { channel: 'mcp' },
    });
    expect(created.isError).toBeFalsy();
    const { id } = created.structuredContent as { id: string };
    expect(id).toMatch(/^proj_/);

    const read = await callTool(mcp, 'get_project', { id });
    expect(read.structuredContent).toMatchObject({
      id,
      name: 'Over stdio',
      agentId: 'agent_stdio',
      status: 'active',
      metadata: { channel: 'mcp' },
    });

    const reply = await callTool(mcp, 'send_message', { projectId: id, message: 'Hello' });
    expect(reply.structuredContent).toMatchObject({
      message: expect.stringMatching(/agent_stdio/),
    });
    expect(textOf(reply)).toContain('Suggested follow-ups:');

    expect(server.service.requests.map((request) => `${request.method} ${request.status}`)).toEqual(
      ['POST 201', 'GET 200', 'POST 200'],
    );
  });

  it('answers an unknown project with a tool error carrying the request id', async () => {
    const result = await callTool(mcp, 'get_project', { id: 'proj_unknown' });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^NotFoundError: GET \/v1\/projects\/proj_unknown failed with status 404: .* \(request id req_\w+\)$/,
    );
  });

  it('refuses bad arguments before any request reaches the service', async () => {
    for (const [tool, args] of badArguments) {
      const result = await callTool(mcp, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toContain(`Invalid arguments for tool ${tool}`);
    }
    expect(server.service.requests).toEqual([]);
  });

  it('retries a 503 under the hood', async () => {
    server.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });

    const result = await callTool(mcp, 'create_project', { name: 'Retried', agentId: 'agent_1' });

    expect(result.isError).toBeFalsy();
    expect(server.service.requests.map((request) => request.status)).toEqual([503, 201]);
    expect(server.service.projects()).toHaveLength(1);
  });

  it('logs to stderr only, and never shows the key in a message or a log line', async () => {
    server.service.enqueue({
      kind: 'status',
      status: 400,
      body: { error: { type: 'invalid_request', message: `Rejected key ${API_KEY}` } },
    });
    const echoed = await callTool(mcp, 'create_project', { name: 'Echo', agentId: 'agent_1' });
    expect(textOf(echoed)).toContain('[redacted]');
    await callTool(mcp, 'get_project', { id: 'proj_unknown' });

    // Each attempt was logged, on stderr; stdout carried only protocol messages.
    await expect.poll(() => stderr).toMatch(/agentchat: GET \/v1\/projects\/proj_unknown/);
    expect(transport.errors).toEqual([]);
    expect(
      server.service.requests.every((r) => r.headers.authorization === `Bearer ${API_KEY}`),
    ).toBe(true);
    // The service can tell agentchat-mcp's calls from an app's.
    expect(new Set(server.service.requests.map((r) => r.headers['user-agent']))).toEqual(
      new Set([`agentchat-js/${VERSION} agentchat-mcp/${VERSION}`]),
    );
    expect(transport.transcript()).not.toContain(API_KEY);
    expect(stderr).not.toContain(API_KEY);
  });
});

describe('agentchat-mcp', { timeout: 30_000 }, () => {
  /** Runs the bin with only `env` (and PATH) set, its stdin closed at once. */
  function runBin(env: Record<string, string>, args: string[] = []) {
    return runProcess(process.execPath, [...bin, ...args], {
      cwd: repo,
      env: { PATH: process.env.PATH, ...env },
    });
  }

  /** Starts the bin configured for the mock service, its stdin left open to write as a host. */
  function startBin() {
    return spawnWithInput(process.execPath, bin, {
      cwd: repo,
      env: {
        PATH: process.env.PATH,
        AGENTCHAT_API_KEY: API_KEY,
        AGENTCHAT_BASE_URL: server.baseUrl,
      },
    });
  }

  it('exits once its standard input closes, as the stdio transport expects', async () => {
    const { code, stdout, stderr } = await runBin({
      AGENTCHAT_API_KEY: API_KEY,
      AGENTCHAT_BASE_URL: server.baseUrl,
    });

    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('says in one line on stderr what it is when started in a terminal, then serves until its input ends', async () => {
    // `script` (util-linux, in every Debian) gives the bin a terminal for its standard input; its
    // standard output goes to /dev/null, so the terminal shows only what it writes to stderr.
    // With nothing to type, `script` ends the terminal's input, and the bin exits as a host's
    // closed pipe makes it exit.
    const command = [process.execPath, ...bin, '>/dev/null'].join(' ');
    const { code, stdout } = await runProcess('script', ['-qec', command, '/dev/null'], {
      cwd: repo,
      env: {
        PATH: process.env.PATH,
        AGENTCHAT_API_KEY: API_KEY,
        AGENTCHAT_BASE_URL: server.baseUrl,
      },
    });

    expect({ code, terminal: stdout.replaceAll('\r\n', '\n') }).toEqual({
      code: 0,
      terminal:
        'agentchat-mcp: an MCP server on stdio, for an MCP host (Claude Desktop, an IDE) to start; it is waiting for one on standard input. Ctrl+C quits; agentchat-mcp --help shows how hosts run it.\n',
    });
  });

  it('stops with exit status 1 and one line on stderr when a message is over 10 MiB, quoting none of it', async () => {
    const { child, result } = startBin();
    // The bin stops reading at the limit: the rest of the write then fails, as a host's would.
    child.stdin.on('error', () => {});
    const name = 'host-written-text '.repeat(600_000);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_project', arguments: { name, agentId: 'agent_1' } } })}\n`,
    );
    // The host keeps its end open: the bin ends by itself.
    const { code, stdout, stderr } = await result;

    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'agentchat-mcp: a message from the host was over 10 MiB, the most one stdio message may take; stopping.\n',
    });
    expect(server.service.projects().filter((project) => project.name === name)).toEqual([]);
    // Ten MiB through a pipe into a process that starts with tsx: longer than the other cases.
  }, 60_000);

  it('explains a missing setting in one line and exits non-zero', async () => {
    const { code, stdout, stderr } = await runBin({ AGENTCHAT_API_KEY: API_KEY });

    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'agentchat-mcp: AGENTCHAT_BASE_URL is not set: set it to the service root before /v1, such as https://host/api.\n',
    );
  });

  it("explains a setting the client refuses in one line, with the client's message", async () => {
    const { code, stderr } = await runBin({
      AGENTCHAT_API_KEY: API_KEY,
      AGENTCHAT_BASE_URL: 'ftp://127.0.0.1/api',
    });

    expect(code).toBe(1);
    // One line: the client's own message about the option, after the bin's name.
    expect(stderr).toMatch(/^agentchat-mcp: [^\n]*baseUrl[^\n]*ftp:\/\/127\.0\.0\.1\/api[^\n]*\n$/);
    expect(stderr).not.toContain(API_KEY);
  });

  it('refuses an unknown tool at start, naming the one meant', async () => {
    const { code, stdout, stderr } = await runBin(
      { AGENTCHAT_API_KEY: API_KEY, AGENTCHAT_BASE_URL: server.baseUrl },
      ['--tools', 'get_project,send_mesage'],
    );

    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'agentchat-mcp: Unknown tool "send_mesage"; did you mean send_message? (the tools are create_project, get_project, send_message).\n',
    );
  });

  it('refuses an unknown option, naming the one meant and the help, with exit code 2', async () => {
    const { code, stderr } = await runBin({}, ['--read-onyl']);

    // 2, a usage error, as agentchat-mock exits; 1 is for a failure to start.
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^agentchat-mcp: Unknown option --read-onyl; did you mean --read-only\?.*\(see agentchat-mcp --help\)\n$/,
    );
  });

  it('refuses a --request-timeout that is not a whole number of milliseconds, before listening', async () => {
    const { code, stderr } = await runBin({}, [
      '--http',
      '--port',
      '0',
      '--request-timeout',
      '30s',
    ]);

    expect(code).toBe(2);
    expect(stderr).toBe(
      'agentchat-mcp: --request-timeout takes a whole number of milliseconds above 0, got "30s". (see agentchat-mcp --help)\n',
    );
  });

  it('prints its usage with --help and its version with --version, needing no settings', async () => {
    const help = await runBin({}, ['--help']);
    const version = await runBin({}, ['-v']);

    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: agentchat-mcp \[options\]\n/);
    // Every option the bin reads, and every variable, is in the usage.
    for (const name of [
      '--http',
      '--port',
      '--host',
      '--allowed-origin',
      '--allow-remote',
      '--request-timeout',
    ]) {
      expect(help.stdout).toContain(name);
    }
    for (const name of ['--tools', '--read-only', 'AGENTCHAT_BASE_URL', 'AGENTCHAT_API_KEY']) {
      expect(help.stdout).toContain(name);
    }
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('serves only get_project with --read-only', async () => {
    const { mcp } = await connectRecorded(
      new StdioClientTransport({
        command: process.execPath,
        args: [...bin, '--read-only'],
        cwd: repo,
        env: { AGENTCHAT_API_KEY: API_KEY, AGENTCHAT_BASE_URL: server.baseUrl },
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['get_project']);
    } finally {
      await mcp.close();
    }
  });

  it('answers a host that writes JSON-RPC by hand, and exits when the host hangs up', async () => {
    const { child, result } = startBin();
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw-host', version: '1.0.0' },
      },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    const [firstLine] = (await once(child.stdout, 'data')) as [Buffer];
    child.stdin.end();
    const { code } = await result;

    expect(JSON.parse(firstLine.toString().split('\n')[0] ?? '')).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'agentchat' } },
    });
    expect(code).toBe(0);
  });
});
