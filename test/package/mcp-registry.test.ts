/**
 * server.json's npm entry as an MCP registry client runs it: the packed tarball published to a
 * real npm registry on 127.0.0.1 (verdaccio), then started with npx the way registry clients
 * start an npm entry with `runtimeHint: "npx"`, `npx -y <identifier>@<version>`, which picks the
 * package's bin named like the package (`agentchat`, the same file as `agentchat-mcp`); and, with
 * nothing else installed (npx installs no optional peer; the bin's build carries the MCP server
 * SDK), spoken to by the official MCP client over stdio: it answers initialize as agentchat-mcp,
 * with its icons, and lists its tools and its MCP Apps views.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client as McpClient } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { allToolNames, connectRecorded, listedToolNames } from '../helpers/mcp-client.js';
import { runProcess } from '../helpers/run-process.js';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';

const repo = resolve(import.meta.dirname, '../..');
const API_KEY = 'sk_mcp_registry_7e21c4';
/** npx installs the package and its dependencies through the registry: seconds to a minute. */
const STEP_TIMEOUT = 300_000;

interface NpmEntry {
  registryType: string;
  identifier: string;
  version: string;
  runtimeHint: string;
}
const serverJson = JSON.parse(await readFile(join(repo, 'server.json'), 'utf8')) as {
  packages: NpmEntry[];
};
const npmEntry = serverJson.packages.find((entry) => entry.registryType === 'npm') as NpmEntry;

let registry: LocalRegistry;
let mock: MockServer;
let work: string;
/** A shell's environment with npm pointed at the local registry and a cache of its own. */
let env: Record<string, string>;

beforeAll(async () => {
  const upstream = (await runProcess('npm', ['config', 'get', 'registry'], { cwd: repo })).stdout;
  registry = await startLocalRegistry(upstream.trim());
  mock = await startMockServer({ apiKeys: [API_KEY] });
  work = await mkdtemp(join(tmpdir(), 'agentchat-mcp-registry-'));
  await writeFile(join(work, 'npmrc'), registry.npmrc);
  // None of the npm_config_* that npm run test:package exported: they would outrank this config.
  const clean = Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && !entry[0].toLowerCase().startsWith('npm_'),
  );
  env = {
    ...Object.fromEntries(clean),
    npm_config_userconfig: join(work, 'npmrc'),
    npm_config_registry: registry.url,
    // A cache of its own: npx reuses what an earlier run installed for the same spec.
    npm_config_cache: join(work, 'cache'),
    npm_config_update_notifier: 'false',
    AGENTCHAT_API_KEY: API_KEY,
    AGENTCHAT_BASE_URL: mock.baseUrl,
  };
  const published = await runProcess('npm', ['publish', inject('tarball'), '--tag', 'latest'], {
    cwd: work,
    env,
  });
  expect(published.code, published.stderr).toBe(0);
}, STEP_TIMEOUT);

afterAll(async () => {
  await registry?.close();
  await mock?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs npx in the scratch folder, where no project of ours could lend it a bin. */
function npx(args: string[]) {
  return runProcess('npx', args, { cwd: work, env });
}

describe('server.json’s npm entry, started as registry clients start it', () => {
  const spec = () => `${npmEntry.identifier}@${npmEntry.version}`;

  it('is run by npx, the runtime it names', () => {
    expect(npmEntry.runtimeHint).toBe('npx');
  });

  it(
    'npx -y <identifier>@<version> runs agentchat-mcp, the bin named like the package',
    async () => {
      const help = await npx(['-y', spec(), '--help']);
      expect(help.code, help.stderr).toBe(0);
      const usage = await runProcess(
        process.execPath,
        ['--import', 'tsx', 'src/mcp/bin.ts', '--help'],
        {
          cwd: repo,
        },
      );
      expect(help.stdout).toBe(usage.stdout);
    },
    STEP_TIMEOUT,
  );

  describe('with nothing else installed', () => {
    let mcp: McpClient;

    beforeAll(async () => {
      // Installed first, so that the install's time never counts against initialize's timeout.
      const installed = await npx(['-y', spec(), '--version']);
      expect(installed.code, installed.stderr).toBe(0);
      expect(installed.stdout.trim()).toBe(npmEntry.version);
      ({ mcp } = await connectRecorded(
        new StdioClientTransport({ command: 'npx', args: ['-y', spec()], cwd: work, env }),
      ));
    }, STEP_TIMEOUT);
    afterAll(() => mcp?.close());

    it('installs no MCP SDK beside the package: the bin carries its own', async () => {
      // npx's own project for the spec, under the cache: agentchat and its dependencies only.
      const npxProjects = join(work, 'cache', '_npx');
      const [project] = await readdir(npxProjects);
      const installed = join(npxProjects, project ?? '', 'node_modules');
      expect(existsSync(join(installed, 'agentchat', 'package.json'))).toBe(true);
      expect(existsSync(join(installed, '@modelcontextprotocol'))).toBe(false);
    });

    it('answers initialize over stdio as agentchat, with its icons, and lists its tools and views', async () => {
      const info = mcp.getServerVersion();
      expect(info).toMatchObject({ name: 'agentchat', version: npmEntry.version });
      expect(info?.icons?.map((icon) => icon.mimeType)).toEqual(['image/png', 'image/svg+xml']);
      expect(await listedToolNames(mcp)).toEqual(allToolNames);
      const { resources } = await mcp.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual([
        'ui://agentchat/chat.html',
        'ui://agentchat/project.html',
      ]);
    });
  });
});
