/**
 * agentchat/mcp from the packed tarball: the `agentchat-mcp` bin that npm links, spoken to over
 * stdio by the official MCP client and over HTTP by the MCP Inspector's CLI; both builds in
 * process; the HTTP handler in Bun and Deno; the host configuration docs/mcp.md gives; the MCP
 * bundle `npm run build:mcpb` makes; and the bin in a project that lacks the optional peers.
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
import { startAuthorizationServer } from '../helpers/authorization-server.js';
import { freePort } from '../helpers/free-port.js';
import { allToolNames, listedToolNames } from '../helpers/mcp-client.js';
import { startMcpHttp } from '../helpers/mcp-http.js';
import { consumerPath, runJson, useMockServer } from '../helpers/package-consumer.js';
import { runProcess, startProcess } from '../helpers/run-process.js';

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
      const requestsBefore = mock.server.service.requestLog().length;
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
      expect(mock.server.service.requestLog()).toHaveLength(requestsBefore);
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

  it('runs from the host configuration of docs/mcp.md (npx -y -p agentchat agentchat-mcp)', async () => {
    // The tarball stands in for the registry's agentchat; npx installs it, and no optional peer,
    // into its own cache. The host runs it from a folder of its own, outside any project.
    const host = await scratchFolder('agentchat-npx-host-');
    const { client } = await connect(
      'npx',
      ['-y', '-p', inject('tarball'), 'agentchat-mcp'],
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

  it('serves on stdio all the same: the bin carries the MCP server SDK', async () => {
    const { client, output } = await connect(
      join(project, 'node_modules/.bin/agentchat-mcp'),
      [],
      project,
    );
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'agentchat' });
      expect(await listedToolNames(client)).toEqual(allToolNames);
      const created = await call(client, 'create_project', {
        name: 'Without the peer',
        agentId: 'agent_no_peer',
      });
      expect(created.isError).toBeFalsy();
      const { id } = created.structuredContent as { id: string };
      const reply = await call(client, 'send_message', { projectId: id, message: 'Hello' });
      expect(reply.structuredContent).toMatchObject({
        message: expect.stringContaining('agent_no_peer'),
      });
      expect(output.stderr).toBe('');
    } finally {
      await client.close();
    }
  });

  it('says in one line which peers --http needs, and exits non-zero', async () => {
    const { code, stdout, stderr } = await runProcess(
      join(project, 'node_modules/.bin/agentchat-mcp'),
      ['--http', '--port', '0'],
      { cwd: project, env: { PATH, AGENTCHAT_BASE_URL: mock.server.baseUrl } },
    );

    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'agentchat-mcp: --http needs @modelcontextprotocol/server and @modelcontextprotocol/node, optional peer dependencies of agentchat: npm install @modelcontextprotocol/server @modelcontextprotocol/node\n',
    });
  });
});

/** How docs/mcp.md runs the Inspector: the major it was tested with, pinned in every command. */
const INSPECTOR = 'npx @modelcontextprotocol/inspector@^2';

/**
 * The Inspector commands of docs/mcp.md, as a reader copies them (continuation lines joined),
 * split into arguments the way a shell splits them: words, and double-quoted strings.
 */
async function documentedInspectorCommands(): Promise<string[][]> {
  const guide = await readFile(resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
  return guide
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => line.startsWith('npx @modelcontextprotocol/inspector'))
    .map((line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((word) => word[1] ?? word[2] ?? ''));
}

/**
 * Runs the MCP Inspector's CLI (a client nobody on this project wrote) with the arguments a
 * documented command gives after `npx <package>`, and parses its JSON. The Inspector is the
 * repo's devDependency, whose major the documented `@^2` names (checked below).
 */
async function inspector(args: string[]): Promise<Record<string, unknown>> {
  const cli = resolve(
    import.meta.dirname,
    '../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
  );
  const { code, stdout, stderr } = await runProcess(process.execPath, [cli, ...args], {
    env: { PATH, HOME: process.env.HOME },
  });
  if (code !== 0)
    throw new Error(`inspector ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('agentchat-mcp --http from the tarball', () => {
  it("answers the MCP Inspector's CLI, run as docs/mcp.md runs it, with the caller's key passed through", async () => {
    const installed = JSON.parse(
      await readFile(
        resolve(
          import.meta.dirname,
          '../../node_modules/@modelcontextprotocol/inspector/package.json',
        ),
        'utf8',
      ),
    ) as { version: string };
    expect(installed.version).toMatch(/^2\./);
    const documented = await documentedInspectorCommands();
    expect(documented).toHaveLength(2);
    for (const command of documented) expect(command.slice(0, 2).join(' ')).toBe(INSPECTOR);

    const server = await startMcpHttp(
      consumerPath('node_modules/.bin/agentchat-mcp'),
      ['--http', '--port', '0'],
      { cwd: consumerPath(), env: { PATH, AGENTCHAT_BASE_URL: mock.server.baseUrl } },
    );
    try {
      // The documented command with this server's URL and key in place of the placeholders.
      const asDocumented = (command: string[], values: Record<string, string> = {}) =>
        command.slice(2).map((arg) =>
          Object.entries({
            'http://127.0.0.1:8787/mcp': server.url,
            'sk_...': API_KEY,
            ...values,
          }).reduce((text, [placeholder, value]) => text.replace(placeholder, value), arg),
        );
      const [list = [], get = []] = documented;
      const listed = await inspector(asDocumented(list));
      const called = await inspector([
        ...asDocumented(list).slice(0, -2),
        '--method',
        'tools/call',
        '--tool-name',
        'create_project',
        '--tool-arg',
        'name=From the Inspector',
        'agentId=agent_inspector',
      ]);
      const id = (called.structuredContent as { id: string }).id;
      const got = await inspector(asDocumented(get, { proj_123: id }));

      expect((listed.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual(
        allToolNames,
      );
      expect(called.structuredContent).toMatchObject({
        id: expect.stringMatching(/^proj_/),
        name: 'From the Inspector',
        status: 'active',
      });
      expect(got.structuredContent).toMatchObject({ id, name: 'From the Inspector' });
      const create = mock.server.service.requestLog().find((r) => r.method === 'POST');
      expect(create?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('agentchat-mcp --http --authorization-server from the tarball', () => {
  it("answers the MCP Inspector's CLI with an access token of a real authorization server, calling the service with its own key", async () => {
    const issuer = await startAuthorizationServer();
    const server = await startMcpHttp(
      consumerPath('node_modules/.bin/agentchat-mcp'),
      ['--http', '--port', '0', '--authorization-server', issuer.issuer],
      {
        cwd: consumerPath(),
        env: { PATH, AGENTCHAT_BASE_URL: mock.server.baseUrl, AGENTCHAT_API_KEY: API_KEY },
      },
    );
    try {
      // On loopback the resource is the URL served; the authorization server learns it now.
      issuer.addMcpResource(server.url);
      const token = await issuer.issueToken(issuer.mcpClients.writer, server.url);
      const withToken = ['--cli', server.url, '--transport', 'http'];
      const header = ['--header', `Authorization: Bearer ${token}`];

      const listed = await inspector([...withToken, ...header, '--method', 'tools/list']);
      const called = await inspector([
        ...withToken,
        ...header,
        '--method',
        'tools/call',
        '--tool-name',
        'create_project',
        '--tool-arg',
        'name=Authorized',
        'agentId=agent_inspector',
      ]);
      const refused = await inspector([...withToken, '--method', 'tools/list']).catch(
        (error: Error) => error.message,
      );

      expect((listed.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual(
        allToolNames,
      );
      expect(called.structuredContent).toMatchObject({ name: 'Authorized', status: 'active' });
      const create = mock.server.service
        .requestLog()
        .find(
          (request) =>
            request.method === 'POST' &&
            (request.body as { name?: unknown } | undefined)?.name === 'Authorized',
        );
      // The service sees the server's own key, never the caller's token.
      expect(create?.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(JSON.stringify(mock.server.service.requestLog())).not.toContain(token);
      // Without a token the Inspector is turned away (401), and says so.
      expect(refused).toMatch(/exited [1-9]/);
    } finally {
      expect(await server.stop()).toBe(0);
      await issuer.close();
    }
  });
});

describe('createMcpHttpHandler in other runtimes', () => {
  const { bun, deno } = inject('runtimes');

  it.each([
    { name: `Bun ${bun.version}`, bin: bun.bin, flags: (): string[] => [] },
    {
      name: `Deno ${deno.version}`,
      bin: deno.bin,
      // The network only to the mock; the files it reads are the consumer's own modules.
      flags: () => [
        'run',
        '--no-prompt',
        `--allow-net=${new URL(mock.server.url).host}`,
        `--allow-read=${consumerPath()}`,
        '--allow-env',
      ],
    },
  ])('serves the tools as a fetch handler in $name', async ({ bin, flags }) => {
    expect(await runJson(bin, [...flags(), 'mcp-http.mjs', mock.server.baseUrl, API_KEY])).toEqual({
      tools: allToolNames,
      created: true,
      read: 'agent_runtime',
      unauthorized: [401, 'Bearer'],
      health: { status: 'ok' },
    });
  });
});

describe('the MCP bundle (npm run build:mcpb)', () => {
  let unpacked: string;
  let manifest: {
    server: { mcp_config: { command: string; args: string[]; env: Record<string, string> } };
    user_config: Record<string, { sensitive?: boolean; required?: boolean }>;
  };
  const mcpb = resolve(import.meta.dirname, '../../node_modules/.bin/mcpb');

  beforeAll(async () => {
    const folder = await scratchFolder('agentchat-mcpb-');
    const bundle = join(folder, 'agentchat.mcpb');
    // The tarball under test, so that the bundle holds the very package the suite checks.
    await run('npm', ['run', 'build:mcpb', '--', '--tarball', inject('tarball'), '--out', bundle], {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, PATH },
    });
    unpacked = join(folder, 'unpacked');
    await run(mcpb, ['unpack', bundle, unpacked], { env: { ...process.env, PATH } });
    manifest = JSON.parse(await readFile(join(unpacked, 'manifest.json'), 'utf8'));
  });

  it('passes mcpb validate, with the API key a sensitive setting and the base URL a setting', async () => {
    const { stdout } = await run(mcpb, ['validate', join(unpacked, 'manifest.json')], {
      env: { ...process.env, PATH },
    });
    expect(stdout).toMatch(/valid/i);
    expect(manifest.user_config.api_key).toMatchObject({ sensitive: true, required: true });
    expect(manifest.user_config.base_url).toMatchObject({ required: true });
    expect(manifest.user_config.base_url?.sensitive).toBeUndefined();
  });

  it('runs its server over stdio as a desktop host would start it', async () => {
    // The host fills in the manifest's placeholders: the bundle's folder and the user's settings.
    const fill = (value: string) =>
      // biome-ignore-start lint/suspicious/noTemplateCurlyInString: mcpb placeholders
      value
        .replace('${__dirname}', unpacked)
        .replace('${user_config.api_key}', API_KEY)
        .replace('${user_config.base_url}', mock.server.baseUrl);
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: mcpb placeholders
    const { command, args, env } = manifest.server.mcp_config;
    const transport = new StdioClientTransport({
      command: command === 'node' ? process.execPath : command,
      args: args.map(fill),
      cwd: unpacked,
      env: { PATH, ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])) },
      stderr: 'pipe',
    });
    const client = new McpClient({ name: 'mcpb-check', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(await listedToolNames(client)).toEqual(allToolNames);
      const created = await call(client, 'create_project', {
        name: 'From the bundle',
        agentId: 'agent_bundle',
      });
      expect(created.structuredContent).toMatchObject({ name: 'From the bundle' });
    } finally {
      await client.close();
    }
  });
});

describe("docs/mcp.md's sign-in front on one machine, in a project that installed what it says", () => {
  it('serves the front with the identity provider of the recipe, every peer found', async () => {
    const guide = await readFile(resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
    const recipe = guide.slice(guide.indexOf('**On one machine.** To try the front locally'));
    const [install = '', start = ''] = [...recipe.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) =>
      (block[1] ?? '').replace(/\\\n\s*/g, '').trim(),
    );
    const upstream = recipe.match(
      /<!-- front-upstream -->\n(?:<!-- not-checked -->\n)?```js\n([\s\S]*?)```/,
    )?.[1];
    expect(upstream).toContain("import Provider from 'oidc-provider';");

    // The install line as written, the tarball standing in for the registry's agentchat.
    const words = install.split(' ');
    expect(words.slice(0, 2)).toEqual(['npm', 'install']);
    const project = await scratchFolder('agentchat-front-recipe-');
    await writeFile(join(project, 'package.json'), '{"name":"front-recipe","private":true}\n');
    const installed = await runProcess(
      'npm',
      [
        ...words.slice(1).map((word) => (word === 'agentchat' ? inject('tarball') : word)),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: project },
    );
    expect(installed.code, installed.stderr).toBe(0);

    // The identity provider, as the recipe's file, on ports of this run.
    const [issuerPort, frontPort] = [await freePort(), await freePort()];
    const issuer = `http://localhost:${issuerPort}`;
    const front = `http://127.0.0.1:${frontPort}`;
    await writeFile(join(project, 'front-upstream.mjs'), upstream ?? '');
    const provider = await startProcess(
      process.execPath,
      ['--input-type=module', '-e', READY_WHEN_LISTENING],
      {
        ready: /^(listening)$/m,
        cwd: project,
        env: { PATH, ISSUER: issuer, FRONT_ORIGIN: front },
      },
    );

    // The front as the recipe starts it, with --port for this run's and the provider's address.
    const [npx, bin, ...args] = start.split(' ').filter((word) => !/^[A-Z_]+=/.test(word));
    expect([npx, bin]).toEqual(['npx', 'agentchat-mcp']);
    const env = Object.fromEntries(
      start
        .split(' ')
        .filter((word) => /^[A-Z_]+=/.test(word))
        .map((word) => word.split('=', 2)),
    );
    const server = await startMcpHttp(
      join(project, 'node_modules/.bin/agentchat-mcp'),
      [
        ...args.map((word) => (word === 'http://localhost:3000' ? issuer : word)),
        '--port',
        String(frontPort),
      ],
      {
        cwd: project,
        env: {
          PATH,
          ...env,
          AGENTCHAT_BASE_URL: mock.server.baseUrl,
          AGENTCHAT_API_KEY: API_KEY,
        },
      },
    );
    try {
      // The front's engine (oidc-provider, openid-client) loads on this first request.
      const metadata = await fetch(`${front}/.well-known/oauth-authorization-server`);
      expect(metadata.status, server.stderr()).toBe(200);
      expect(await metadata.json()).toMatchObject({ issuer: front });
      expect((await fetch(`${front}/health`)).status).toBe(200);
      expect(server.stderr()).not.toMatch(/needs|npm install/);
    } finally {
      await server.stop();
      provider.child.kill('SIGTERM');
      await provider.exited;
    }
  });
});

/** Runs front-upstream.mjs and says `listening` once its discovery document answers. */
const READY_WHEN_LISTENING = `
await import('./front-upstream.mjs');
for (;;) {
  const answer = await fetch(process.env.ISSUER + '/.well-known/openid-configuration').catch(() => undefined);
  if (answer?.ok) break;
  await new Promise((resolve) => setTimeout(resolve, 25));
}
console.log('listening');
`;
