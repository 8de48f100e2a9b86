/**
 * Copies package.json's version into server.json, the MCP registry's entry for agentchat-mcp: the
 * server's `version` and the npm package's. `npm run version` runs it right after
 * `changeset version` bumps package.json, so the Version Packages pull request carries both, and
 * the release publishes to the registry the version it published to npm.
 *
 *
 * The release adds the desktop bundle's entry (`registryType: "mcpb"`) once it has attached
 * agentchat.mcpb to the version's GitHub release: the registry takes a bundle only as a release
 * asset's URL with the file's SHA-256, which neither exists before the release, so the committed
 * server.json holds no such entry (a placeholder hash would pass the schema and be false).
 *
 *   npx tsx scripts/sync-server-json.ts          # rewrite server.json when it differs
 *   npx tsx scripts/sync-server-json.ts --check  # exit 1 when it differs, change nothing
 *   npx tsx scripts/sync-server-json.ts --mcpb agentchat.mcpb  # add the released bundle's entry
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of server.json this script reads and writes. */
export interface ServerJson {
  name: string;
  version: string;
  repository?: { url: string };
  packages?: {
    registryType: string;
    identifier: string;
    version?: string;
    fileSha256?: string;
    transport?: { type: string };
  }[];
}

/** The bundle's name as the release attaches it. */
export const MCPB_ASSET = 'agentchat.mcpb';

/**
 * server.json with the entry of the bundle the release attached to its GitHub release (tag
 * `v<version>`, under the repository server.json names), in place of any earlier one.
 */
export function withMcpbEntry(server: ServerJson, bundle: Uint8Array): ServerJson {
  const repository = server.repository?.url;
  if (repository === undefined || !repository.startsWith('https://github.com/')) {
    throw new Error(
      'server.json names no GitHub repository, where the release attaches the bundle',
    );
  }
  const entry = {
    registryType: 'mcpb',
    identifier: `${repository}/releases/download/v${server.version}/${MCPB_ASSET}`,
    version: server.version,
    fileSha256: createHash('sha256').update(bundle).digest('hex'),
    transport: { type: 'stdio' },
  };
  const others = (server.packages ?? []).filter((item) => item.registryType !== 'mcpb');
  return { ...server, packages: [...others, entry] };
}

/** The npm package entries of server.json that stand for this package. */
function ownPackages(server: ServerJson, packageName: string) {
  return (server.packages ?? []).filter(
    (entry) => entry.registryType === 'npm' && entry.identifier === packageName,
  );
}

/** package.json's version, and every version server.json states for it. */
export async function readServerJsonVersions(
  root: string,
): Promise<{ pkg: string; server: string[] }> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const server = JSON.parse(await readFile(join(root, 'server.json'), 'utf8')) as ServerJson;
  return {
    pkg: pkg.version,
    server: [server.version, ...ownPackages(server, pkg.name).map((entry) => entry.version ?? '')],
  };
}

/** Rewrites server.json's versions to package.json's; returns whether it changed. */
export async function syncServerJson(root: string): Promise<boolean> {
  const { pkg: version, server: versions } = await readServerJsonVersions(root);
  if (versions.every((stated) => stated === version)) return false;
  const { name } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    name: string;
  };
  const file = join(root, 'server.json');
  const server = JSON.parse(await readFile(file, 'utf8')) as ServerJson;
  server.version = version;
  for (const entry of ownPackages(server, name)) entry.version = version;
  await writeFile(file, `${JSON.stringify(server, null, 2)}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const mcpb = process.argv.indexOf('--mcpb');
  if (mcpb !== -1) {
    const bundle = process.argv[mcpb + 1];
    if (bundle === undefined) {
      console.error('--mcpb needs the bundle file: --mcpb agentchat.mcpb');
      process.exit(2);
    }
    const file = join(root, 'server.json');
    const server = JSON.parse(await readFile(file, 'utf8')) as ServerJson;
    const updated = withMcpbEntry(server, await readFile(bundle));
    await writeFile(file, `${JSON.stringify(updated, null, 2)}\n`);
    console.log(`server.json lists ${updated.packages?.at(-1)?.identifier}`);
  } else if (process.argv.includes('--check')) {
    const { pkg, server } = await readServerJsonVersions(root);
    if (server.some((stated) => stated !== pkg)) {
      console.error(
        `server.json says ${server.join(', ')}, package.json ${pkg}: run npm run version`,
      );
      process.exit(1);
    }
  } else if (await syncServerJson(root)) {
    console.log(`server.json now says ${(await readServerJsonVersions(root)).pkg}`);
  }
}
