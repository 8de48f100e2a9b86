/**
 * Prepares what every packaging test needs, once per run: the package packed the way `npm publish`
 * would pack it from a fresh clone (prepack builds), a scratch consumer project outside the repo that installs that
 * tarball from disk (and its dependencies from the npm registry) as a user would, and the
 * runtime matrix from the cache.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { installRuntimes, type Runtimes } from '../../scripts/runtimes/install.js';
import { packPackage } from '../helpers/pack.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The scratch project that installed the tarball with msw 3; its node_modules hold `agentchat`. */
    consumerDir: string;
    /** A scratch project that had msw 2 installed first, then the tarball. */
    msw2ConsumerDir: string;
    /** The packed `agentchat-<version>.tgz`. */
    tarball: string;
    /** The newest ky the package's range allows, asked of the registry at setup: what users get. */
    newestKy: string;
    runtimes: Runtimes;
  }
}

async function npm(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** `npm pack` of a fresh clone, whose prepack builds, as a release would (see test/helpers/pack.ts). */
async function buildAndPack(scratch: string): Promise<string> {
  return (await packPackage(join(scratch, 'package'), scratch)).filename;
}

/** The versions the repo itself uses, for the scratch projects. */
async function versionOf(name: string): Promise<string> {
  const manifest = JSON.parse(
    await readFile(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

/**
 * The newest version of a runtime dependency that the package's own range allows, asked of the
 * registry now rather than of npm's cache (which `--prefer-offline` would answer from, however
 * old): what `npm install agentchat` gives a user today.
 */
async function newestInRange(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const range = manifest.dependencies[name];
  const answer = JSON.parse(
    await npm(['view', `${name}@${range}`, 'version', '--json', '--prefer-online'], repoRoot),
  ) as string | string[];
  const versions = typeof answer === 'string' ? [answer] : answer;
  const newest = versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1);
  if (!newest) throw new Error(`no version of ${name} matches ${range}`);
  return newest;
}

/** `npm install`, not `npm ci`: see docs on toolchain traps. --prefer-offline reuses npm's cache. */
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** A project outside the repo with the test fixtures and a package.json of its own. */
async function scratchProject(dir: string): Promise<string> {
  await cp(join(import.meta.dirname, 'consumer'), dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'agentchat-consumer', private: true }, null, 2)}\n`,
  );
  return dir;
}

/**
 * A project that installs the tarball with msw 3, @modelcontextprotocol/server and
 * @modelcontextprotocol/node, the optional peers `agentchat/testing`, `agentchat/mcp` and
 * `agentchat-mcp --http` need, @modelcontextprotocol/client to drive the
 * MCP server, and @types/node as a TypeScript server project has: the versions the repo itself
 * uses. ky is the newest the package's range allows (see newestInRange), as a user gets it.
 */
async function createConsumer(scratch: string, tarball: string, newestKy: string): Promise<string> {
  const consumerDir = await scratchProject(join(scratch, 'consumer'));
  await npm(
    [
      'install',
      tarball,
      // Named, so that a stale npm cache cannot hand the consumer an older ky than users get.
      `ky@${newestKy}`,
      `msw@${await versionOf('msw')}`,
      `@modelcontextprotocol/server@${await versionOf('@modelcontextprotocol/server')}`,
      `@modelcontextprotocol/node@${await versionOf('@modelcontextprotocol/node')}`,
      `@modelcontextprotocol/client@${await versionOf('@modelcontextprotocol/client')}`,
      `@types/node@${await versionOf('@types/node')}`,
      ...INSTALL_FLAGS,
    ],
    consumerDir,
  );
  return consumerDir;
}

/**
 * A project on msw 2, as most projects still are: msw 2 is installed first, then the tarball,
 * without flags, as a user adding agentchat would (an optional peer range without msw 2 would
 * make this second install fail with ERESOLVE).
 */
async function createMsw2Consumer(scratch: string, tarball: string): Promise<string> {
  const consumerDir = await scratchProject(join(scratch, 'consumer-msw2'));
  await npm(['install', '--save-dev', 'msw@^2.7', ...INSTALL_FLAGS], consumerDir);
  await npm(['install', tarball, ...INSTALL_FLAGS], consumerDir);
  return consumerDir;
}

export default async function setup(project: TestProject) {
  const scratch = await mkdtemp(join(tmpdir(), 'agentchat-package-'));
  const log = (line: string) => console.log(`[package] ${line}`);

  const [tarball, runtimes, newestKy] = await Promise.all([
    buildAndPack(scratch).then((path) => {
      log(`Packed ${path}`);
      return path;
    }),
    installRuntimes(log),
    newestInRange('ky'),
  ]);
  const [consumerDir, msw2ConsumerDir] = await Promise.all([
    createConsumer(scratch, tarball, newestKy),
    createMsw2Consumer(scratch, tarball),
  ]);
  log(
    `Consumer projects installed in ${consumerDir} (msw 3, ky ${newestKy}) and ${msw2ConsumerDir} (msw 2)`,
  );

  project.provide('consumerDir', consumerDir);
  project.provide('msw2ConsumerDir', msw2ConsumerDir);
  project.provide('tarball', tarball);
  project.provide('newestKy', newestKy);
  project.provide('runtimes', runtimes);

  return async () => {
    // AGENTCHAT_KEEP_CONSUMER=1 keeps the scratch project for a look after a failure.
    if (!process.env.AGENTCHAT_KEEP_CONSUMER) await rm(scratch, { recursive: true, force: true });
  };
}
