/**
 * server.json, agentchat-mcp's entry in the MCP registry: valid against the registry's published
 * schema (the copy in test/fixtures/mcp-registry, see its README), named as package.json's
 * `mcpName` says, at package.json's version (kept so by `npm run version`), listing the npm
 * package as registry clients run it and the icons by https URLs of the repository's own files.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import {
  readServerJsonVersions,
  syncServerJson,
  withMcpbEntry,
} from '../../scripts/sync-server-json.js';
import { AGENTCHAT_ICONS } from '../../src/mcp/icons.js';

const repo = new URL('../..', import.meta.url).pathname;

interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}
interface Package {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  runtimeHint?: string;
  transport: { type: string };
  environmentVariables?: { name: string; isRequired?: boolean; isSecret?: boolean }[];
}
interface ServerJson {
  $schema: string;
  name: string;
  version: string;
  icons: Icon[];
  repository: { url: string; source: string };
  packages: Package[];
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(join(repo, path), 'utf8')) as T;
}

const server = await readJson<ServerJson>('server.json');
const pkg = await readJson<{
  name: string;
  version: string;
  mcpName: string;
  bin: Record<string, string>;
  repository: { url: string };
  scripts: Record<string, string>;
}>('package.json');
const schema = await readJson<{ $id: string }>('test/fixtures/mcp-registry/server.schema.json');

/** The registry's schema, compiled: draft-07, its `example` annotations allowed. */
function registryValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

/** `owner/name` of the GitHub repository package.json names. */
const githubRepository = pkg.repository.url.match(
  /github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/,
)?.[1];

describe('server.json', () => {
  it('is valid against the registry schema it names', () => {
    expect(server.$schema).toBe(schema.$id);
    const validate = registryValidator();
    expect(validate(server), JSON.stringify(validate.errors)).toBe(true);
  });

  it('is refused by that schema when it breaks a rule, so a pass means something', () => {
    const validate = registryValidator();
    const broken = {
      ...server,
      description: 'x'.repeat(101),
      packages: [{ ...server.packages[0], version: 'latest' }],
    };
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath)).toEqual(
      expect.arrayContaining(['/description', '/packages/0/version']),
    );
  });

  it('is named by package.json’s mcpName, in the namespace of the GitHub repository', () => {
    expect(server.name).toBe(pkg.mcpName);
    // The registry gives io.github.<owner>/* to the owner's GitHub identity (the release's OIDC).
    const owner = githubRepository?.split('/')[0];
    expect(server.name.startsWith(`io.github.${owner}/`)).toBe(true);
    expect(server.repository).toEqual({
      url: `https://github.com/${githubRepository}`,
      source: 'github',
    });
  });

  it('states package.json’s version for the server and for the npm package', async () => {
    expect(await readServerJsonVersions(repo)).toEqual({
      pkg: pkg.version,
      server: [pkg.version, pkg.version],
    });
  });

  it('lists the npm package, run over stdio by npx, whose bin of the package’s name is agentchat-mcp', () => {
    expect(server.packages.map(({ environmentVariables: _, ...entry }) => entry)).toEqual([
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: pkg.name,
        version: pkg.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
      },
    ]);
    // `npx agentchat@<version>` runs the bin named as the package: the MCP server.
    expect(pkg.bin[pkg.name]).toBe(pkg.bin['agentchat-mcp']);
    expect(server.packages[0]?.environmentVariables).toEqual([
      expect.objectContaining({ name: 'AGENTCHAT_API_KEY', isRequired: true, isSecret: true }),
      expect.objectContaining({ name: 'AGENTCHAT_BASE_URL', isRequired: true }),
    ]);
  });

  it('lists no .mcpb bundle in the repository: the release adds it, with its URL and hash', () => {
    expect(server.packages.filter((entry) => entry.registryType === 'mcpb')).toEqual([]);
  });

  it('as the release publishes it, lists the bundle attached to the version’s GitHub release, and is valid', () => {
    // The release hashes the bundle it attached; an empty file's SHA-256 is known by heart.
    const published = withMcpbEntry(server, new Uint8Array());
    expect(published.packages).toEqual([
      server.packages[0],
      {
        registryType: 'mcpb',
        identifier: `https://github.com/${githubRepository}/releases/download/v${pkg.version}/agentchat.mcpb`,
        version: pkg.version,
        fileSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        transport: { type: 'stdio' },
      },
    ]);
    const validate = registryValidator();
    expect(validate(published), JSON.stringify(validate.errors)).toBe(true);
    // Run again (a retried release), it replaces the entry rather than add a second one.
    const again = withMcpbEntry(published, new TextEncoder().encode('rebuilt'));
    expect(again.packages?.filter((entry) => entry.registryType === 'mcpb')).toHaveLength(1);
    expect(again.packages?.at(-1)?.fileSha256).not.toBe(published.packages?.at(-1)?.fileSha256);
  });

  it('names the icons the server carries by https URLs of the repository’s files', async () => {
    const raw = `https://raw.githubusercontent.com/${githubRepository}/main/`;
    expect(server.icons.map(({ src: _, ...icon }) => icon)).toEqual(
      AGENTCHAT_ICONS.map(({ src: _, ...icon }) => icon),
    );
    for (const [index, icon] of server.icons.entries()) {
      expect(icon.src.length).toBeLessThanOrEqual(255);
      expect(icon.src.startsWith(raw)).toBe(true);
      const file = await readFile(join(repo, icon.src.slice(raw.length)));
      const dataUri = AGENTCHAT_ICONS[index]?.src ?? '';
      expect(file.toString('base64')).toBe(dataUri.slice(dataUri.indexOf(',') + 1));
    }
  });
});

describe('npm run version', () => {
  const scratch: string[] = [];
  afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('brings server.json to the version changesets gave package.json', async () => {
    expect(pkg.scripts.version).toMatch(
      /^changeset version && .*tsx scripts\/sync-server-json\.ts(?: && |$)/,
    );
    const copy = await mkdtemp(join(tmpdir(), 'agentchat-server-json-'));
    scratch.push(copy);
    await writeFile(join(copy, 'package.json'), JSON.stringify({ ...pkg, version: '1.3.0' }));
    await writeFile(join(copy, 'server.json'), JSON.stringify(server));

    expect(await syncServerJson(copy)).toBe(true);

    const synced = JSON.parse(await readFile(join(copy, 'server.json'), 'utf8')) as ServerJson;
    expect(synced).toEqual({
      ...server,
      version: '1.3.0',
      packages: [{ ...server.packages[0], version: '1.3.0' }],
    });
    expect(await syncServerJson(copy)).toBe(false);
  });
});
