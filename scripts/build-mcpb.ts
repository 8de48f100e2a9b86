/**
 * `npm run build:mcpb`: packs `agentchat-mcp` as an MCP bundle, `agentchat.mcpb`, for a one-click
 * install in desktop hosts: the packed package with its runtime dependencies (the bin's build
 * carries the MCP server SDK it serves on stdio with), and a manifest whose settings the host asks for on install,
 * the API key among them marked `sensitive` (kept in the OS keychain, not in a JSON file).
 *
 *   npm run build:mcpb [-- --tarball agentchat-1.2.0.tgz] [-- --out path/agentchat.mcpb]
 *
 * Without `--tarball` it builds and packs the package first, in a scratch copy, as a release would.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { allTools } from '../src/mcp/scope.js';
import { packPackage } from '../test/helpers/pack.js';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '..');
/** The bin inside the bundle, as the manifest names it. */
const ENTRY_POINT = 'node_modules/agentchat/dist/mcp/bin.js';

const { values } = parseArgs({
  options: { tarball: { type: 'string' }, out: { type: 'string' } },
  strict: true,
});
const output = resolve(values.out ?? join(repo, 'agentchat.mcpb'));
const scratch = join(repo, '.tmp', 'mcpb');
const bundle = join(scratch, 'bundle');
await rm(scratch, { recursive: true, force: true });
await mkdir(bundle, { recursive: true });

const manifest = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
  license: string;
  homepage: string;
  repository: { url: string };
  engines: { node: string };
};
const tarball = values.tarball
  ? resolve(values.tarball)
  : (await packPackage(join(scratch, 'package'), scratch)).filename;

// The bundle carries its node_modules: a host runs it with its own Node and installs nothing.
await writeFile(
  join(bundle, 'package.json'),
  `${JSON.stringify({ name: 'agentchat-mcpb', private: true }, null, 2)}\n`,
);
await run(
  'npm',
  ['install', tarball, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'],
  {
    cwd: bundle,
  },
);

const bundleManifest = {
  manifest_version: '0.3',
  name: 'agentchat',
  display_name: 'Project and Agent Chat',
  version: manifest.version,
  description: manifest.description,
  long_description:
    'Create projects bound to AI agents, read them and chat with their agents, from any MCP ' +
    'host. The tools call the service with your API key through the official agentchat SDK: ' +
    'arguments checked before anything is sent, retries and timeouts handled, the key never ' +
    'in a result or an error.',
  author: { name: 'agentchat', url: manifest.homepage },
  repository: { type: 'git', url: manifest.repository.url.replace(/^git\+/, '') },
  homepage: manifest.homepage,
  documentation: `${manifest.homepage.replace(/#readme$/, '')}/blob/main/docs/mcp.md`,
  license: manifest.license,
  keywords: ['agentchat', 'projects', 'agents', 'chat'],
  server: {
    type: 'node',
    entry_point: ENTRY_POINT,
    mcp_config: {
      command: 'node',
      args: [`\${__dirname}/${ENTRY_POINT}`],
      // The host's placeholders, filled in from the settings below when it starts the server.
      env: {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an mcpb placeholder, not JS
        AGENTCHAT_API_KEY: '${user_config.api_key}',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an mcpb placeholder, not JS
        AGENTCHAT_BASE_URL: '${user_config.base_url}',
      },
    },
  },
  tools: allTools.map((tool) => ({ name: tool.name, description: tool.title })),
  user_config: {
    api_key: {
      type: 'string',
      title: 'API key',
      description: 'Your Project and Agent Chat API key. Kept in the system keychain.',
      sensitive: true,
      required: true,
    },
    base_url: {
      type: 'string',
      title: 'Service URL',
      description: 'The service root before /v1, such as https://host/api.',
      required: true,
    },
  },
  compatibility: {
    platforms: ['darwin', 'win32', 'linux'],
    runtimes: { node: manifest.engines.node.replace(/^\^/, '>=').split(' ')[0] },
  },
};
await writeFile(join(bundle, 'manifest.json'), `${JSON.stringify(bundleManifest, null, 2)}\n`);

const mcpb = join(repo, 'node_modules', '.bin', 'mcpb');
await run(mcpb, ['validate', join(bundle, 'manifest.json')]);
await run(mcpb, ['pack', bundle, output]);
console.log(`Built ${output}`);
