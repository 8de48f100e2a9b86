/**
 * Prepares what every packaging test needs, once per run: the package built and packed the way
 * `npm publish` would pack it, a scratch consumer project outside the repo that installs that
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
import { packPackage } from '../support/pack.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The scratch project that installed the tarball; its node_modules hold `agentchat`. */
    consumerDir: string;
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

/** `npm run build` then `npm pack`, as a release would (see test/support/pack.ts). */
async function buildAndPack(scratch: string): Promise<string> {
  return (await packPackage(join(scratch, 'package'), scratch)).filename;
}

/** A project outside the repo with the test fixtures, installing the tarball and the peers. */
async function createConsumer(scratch: string, tarball: string): Promise<string> {
  const consumerDir = join(scratch, 'consumer');
  await cp(join(import.meta.dirname, 'consumer'), consumerDir, { recursive: true });
  await writeFile(
    join(consumerDir, 'package.json'),
    `${JSON.stringify({ name: 'agentchat-consumer', private: true }, null, 2)}\n`,
  );
  // msw and @modelcontextprotocol/server are the optional peers `agentchat/testing` and
  // `agentchat/mcp` need, @modelcontextprotocol/client what drives the MCP server, and @types/node
  // what a TypeScript server project has: the versions the repo itself uses.
  const versionOf = async (name: string) =>
    (
      JSON.parse(await readFile(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  // `npm install`, not `npm ci`: see docs on toolchain traps. --prefer-offline reuses npm's cache.
  await npm(
    [
      'install',
      tarball,
      `msw@${await versionOf('msw')}`,
      `@modelcontextprotocol/server@${await versionOf('@modelcontextprotocol/server')}`,
      `@modelcontextprotocol/client@${await versionOf('@modelcontextprotocol/client')}`,
      `@types/node@${await versionOf('@types/node')}`,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    consumerDir,
  );
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
  const consumerDir = await createConsumer(scratch, tarball);
  log(`Consumer project installed in ${consumerDir}`);

  project.provide('consumerDir', consumerDir);
  project.provide('tarball', tarball);
  project.provide('runtimes', runtimes);

  return async () => {
    // AGENTCHAT_KEEP_CONSUMER=1 keeps the scratch project for a look after a failure.
    if (!process.env.AGENTCHAT_KEEP_CONSUMER) await rm(scratch, { recursive: true, force: true });
  };
}
