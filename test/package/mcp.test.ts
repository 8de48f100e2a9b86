/**
 * agentchat/mcp from the packed tarball: the `agentchat-mcp` bin that npm links, spoken to over
 * stdio by the official MCP client; both builds in process; the host configuration docs/mcp.md
 * gives; and the bin in a project that lacks the optional peer.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type CallToolResult, Client as McpClient } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consumerPath, runJson, useMockServer } from '../helpers/package-consumer.js';
import { runProcess } from '../helpers/run-process.js';

const run = promisify(execFile);
const mock = useMockServer();
/** The key the scenario scripts use, which the mock (any non-empty key) accepts. */
const API_KEY = 'sk_test_package';
/** The repo's Node 22 first, as `npm run test:package` puts it; the bin's shebang asks for `node`. */
const PATH = `${resolve(import.meta.dirname, '../../node_modules/.bin')}:${process.env.PATH}`;

const scratchFolders: string[] = [];
afterAll(async () => {
  for (const folder of scratchFolders) await rm(folder, { recursive: true, force: true });
});

/** A new empty folder outside the consumer project, removed after the tests. */
async function scratchFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  scratchFolders.push(folder);
  return folder;
}

/**
 * Connects the official MCP client to a server process, collecting what it writes to stderr.
 * The process gets the few variables a host passes (`PATH`, `HOME`...), the settings, and `env`.
 */
async function connect(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
) {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: definedOnly({
      ...env,
      PATH,
      AGENTCHAT_API_KEY: API_KEY,
      AGENTCHAT_BASE_URL: mock.server.baseUrl,
    }),
    stderr: 'pipe',
  });
  const output = { stderr: '' };
  transport.stderr?.on('data', (chunk: Buffer) => {
    output.stderr += chunk;
  });
  const client = new McpClient({ name: 'package-check', version: '1.0.0' });
  await client.connect(transport);
  return { client, output };
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function call(client: McpClient, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describe('agentchat-mcp with @modelcontextprotocol/server installed beside it', () => {
  it("answers the official client's tool calls over stdio", async () => {
    const { client, output } = await connect(
      consumerPath('node_modules/.bin/agentchat-mcp'),
      [],
      consumerPath(),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'create_project',
        'get_project',
        'send_message',
      ]);

      const created = await call(client, 'create_project', {
        name: 'From the tarball',
        agentId: 'agent_package',
      });
      const { id } = created.structuredContent as { id: string };
      const read = await call(client, 'get_project', { id });
      const reply = await call(client, 'send_message', { projectId: id, message: 'Hello' });
      const missing = await call(client, 'get_project', { id: 'proj_does_not_exist' });
      const requestsBefore = mock.server.service.requests.length;
      const invalid = await call(client, 'create_project', { name: '', agentId: 'agent_1' });

      expect(read.structuredContent).toMatchObject({ id, agentId: 'agent_package' });
      expect(reply.structuredContent).toMatchObject({
        message: expect.stringContaining('agent_package'),
      });
      expect(missing.isError).toBe(true);
      expect(missing.content[0]).toMatchObject({
        text: expect.stringMatching(/^NotFoundError: .* \(request id req_\w+\)$/),
      });
      expect(invalid.isError).toBe(true);
      expect(mock.server.service.requests).toHaveLength(requestsBefore);
      expect(output.stderr).toBe('');
    } finally {
      await client.close();
    }
  });

  it.each([
    { build: 'ESM', script: 'mcp.mjs', entry: 'dist/mcp/index.js' },
    { build: 'CJS', script: 'mcp.cjs', entry: 'dist/mcp/index.cjs' },
  ])('serves the tools in process from the $build build', async ({ script, entry }) => {
    expect(await runJson(process.execPath, [script, mock.server.baseUrl])).toEqual({
      tools: ['create_project', 'get_project', 'send_message'],
      created: { idPrefix: 'proj_', status: 'active' },
      read: { sameId: true, agentId: 'agent_mcp' },
      reply: 'Hello! agent_mcp here. How can I help with your project today?',
      missing: { isError: true, errorClass: 'NotFoundError' },
      entry,
    });
  });

  it('runs from the host configuration of docs/mcp.md (npx -p agentchat -p @modelcontextprotocol/server)', async () => {
    // The tarball stands in for the registry's agentchat, and the server is the version the
    // consumer installed; npx installs both into its own cache, side by side. The host runs it
    // from a folder of its own, outside any project.
    const host = await scratchFolder('agentchat-npx-host-');
    const { version } = JSON.parse(
      await readFile(
        consumerPath('node_modules/@modelcontextprotocol/server/package.json'),
        'utf8',
      ),
    ) as { version: string };
    const peer = `@modelcontextprotocol/server@${version}`;
    const { client } = await connect(
      'npx',
      ['-y', '-p', inject('tarball'), '-p', peer, 'agentchat-mcp'],
      host,
      // npm needs this machine's network settings (a proxy, a CA certificate) to reach the
      // registry, as it has them on the user's; the packages are in its cache already.
      { ...process.env, npm_config_prefer_offline: 'true' },
    );
    try {
      const missing = await call(client, 'get_project', { id: 'proj_from_npx' });
      expect(missing.content[0]).toMatchObject({
        text: expect.stringMatching(/^NotFoundError: GET \/v1\/projects\/proj_from_npx/),
      });
    } finally {
      await client.close();
    }
  });
});

describe('agentchat-mcp without @modelcontextprotocol/server', () => {
  let project: string;

  beforeAll(async () => {
    // Outside the consumer, whose node_modules hold the peer: Node would find it up the tree.
    project = await scratchFolder('agentchat-without-mcp-peer-');
    await writeFile(join(project, 'package.json'), '{ "name": "no-mcp-peer", "private": true }\n');
    await run(
      'npm',
      [
        'install',
        inject('tarball'),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      { cwd: project },
    );
  });

  it('is not installed with agentchat, being an optional peer', () => {
    expect(existsSync(join(project, 'node_modules/agentchat/package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/@modelcontextprotocol'))).toBe(false);
  });

  it('says in one line how to install it, and exits non-zero', async () => {
    const { code, stdout, stderr } = await runProcess(
      join(project, 'node_modules/.bin/agentchat-mcp'),
      [],
      {
        cwd: project,
        env: { PATH, AGENTCHAT_API_KEY: API_KEY, AGENTCHAT_BASE_URL: mock.server.baseUrl },
      },
    );

    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'agentchat-mcp: needs @modelcontextprotocol/server, an optional peer dependency of agentchat: npm install @modelcontextprotocol/server\n',
    });
  });
});
