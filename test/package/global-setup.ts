/**
 * Prepares what every packaging test needs, once per run: the package built and packed the way
 * `npm publish` would pack it, a scratch consumer project outside the repo that installs that
 * tarball from disk (and its dependencies from the npm registry) as a user would, and the
 * runtime matrix from the cache.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { installRuntimes, type Runtimes } from '../../scripts/runtimes/install.js';

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

/**
 * `npm run build` then `npm pack`, as a release would, but into a scratch copy of the package so
 * that the repo's dist/ is never rewritten under someone else's running tests. Returns the
 * tarball's path.
 */
async function buildAndPack(scratch: string): Promise<string> {
  const copy = join(scratch, 'package');
  await npm(['run', 'build', '--', '--out-dir', join(copy, 'dist'), '--silent'], repoRoot);
  const manifest = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
    files: string[];
  };
  // What npm packs besides dist/: package.json's `files`, and the files npm always includes.
  const shipped = ['package.json', 'README.md', 'LICENSE', ...manifest.files];
  for (const entry of new Set(shipped.filter((file) => file !== 'dist'))) {
    if (existsSync(join(repoRoot, entry))) {
      await cp(join(repoRoot, entry), join(copy, entry), { recursive: true });
    }
  }
  const packed = JSON.parse(
    await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], copy),
  ) as Array<{ filename: string }>;
  const filename = packed[0]?.filename;
  if (!filename) throw new Error('npm pack reported no tarball.');
  return join(scratch, filename);
}

/** The versions the repo itself uses, for the scratch projects. */
async function versionOf(name: string): Promise<string> {
  const manifest = JSON.parse(
    await readFile(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
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
 * A project that installs the tarball and msw 3, the optional peer `agentchat/testing` needs, with
 * @types/node as a TypeScript server project has: the versions the repo itself uses.
 */
async function createConsumer(scratch: string, tarball: string): Promise<string> {
  const consumerDir = await scratchProject(join(scratch, 'consumer'));
  await npm(
    [
      'install',
      tarball,
      `msw@${await versionOf('msw')}`,
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

  const [tarball, runtimes] = await Promise.all([
    buildAndPack(scratch).then((path) => {
      log(`Packed ${path}`);
      return path;
    }),
    installRuntimes(log),
  ]);
  const [consumerDir, msw2ConsumerDir] = await Promise.all([
    createConsumer(scratch, tarball),
    createMsw2Consumer(scratch, tarball),
  ]);
  log(`Consumer projects installed in ${consumerDir} (msw 3) and ${msw2ConsumerDir} (msw 2)`);

  project.provide('consumerDir', consumerDir);
  project.provide('msw2ConsumerDir', msw2ConsumerDir);
  project.provide('tarball', tarball);
  project.provide('runtimes', runtimes);

  return async () => {
    // AGENTCHAT_KEEP_CONSUMER=1 keeps the scratch project for a look after a failure.
    if (!process.env.AGENTCHAT_KEEP_CONSUMER) await rm(scratch, { recursive: true, force: true });
  };
}
