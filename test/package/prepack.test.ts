/**
 * `npm pack` on a fresh clone, with no build made before it: what a maintainer publishing by hand,
 * or a user packing a branch to try it, gets. The repo's `prepack` builds, so the tarball holds
 * the code; it is installed into a new project, imported, and both bins run from it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';

const repo = resolve(import.meta.dirname, '../..');
let scratch: string;

async function run(command: string, args: string[], cwd: string): Promise<string> {
  const { code, stdout, stderr } = await runProcess(command, args, { cwd });
  if (code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`);
  return stdout;
}

/**
 * A clone of the working tree: every file git tracks or would track, and no `dist/`. The repo's
 * node_modules is linked in, as `npm install` would have made it, to spare a second install.
 */
async function freshClone(into: string): Promise<void> {
  const files = (
    await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], repo)
  )
    .split('\0')
    .filter((path) => path !== '');
  for (const path of files) {
    await mkdir(dirname(join(into, path)), { recursive: true });
    // A file deleted in the working tree but still in the index is not part of the clone.
    await cp(join(repo, path), join(into, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await symlink(join(repo, 'node_modules'), join(into, 'node_modules'));
}

let tarball: string;
let consumer: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentchat-prepack-'));
  const clone = join(scratch, 'clone');
  await freshClone(clone);
  // With its scripts, as `npm pack` runs for anyone: prepack builds.
  const output = await run('npm', ['pack', '--json', '--pack-destination', scratch], clone);
  // The build prints its progress on the same output, before npm's JSON array.
  const [packed] = JSON.parse(output.slice(output.search(/^\[$/m))) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!packed) throw new Error('npm pack reported nothing');
  tarball = join(scratch, packed.filename);

  consumer = join(scratch, 'consumer');
  await mkdir(consumer);
  await writeFile(join(consumer, 'package.json'), '{"name":"consumer","private":true}\n');
  // msw, the optional peer the mock's bin needs, as docs/testing.md has users install it.
  const msw = JSON.parse(await readFile(join(repo, 'node_modules/msw/package.json'), 'utf8')) as {
    version: string;
  };
  await run(
    'npm',
    [
      'install',
      tarball,
      `msw@${msw.version}`,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    consumer,
  );
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('npm pack from a fresh clone, without a prior build', () => {
  it('ships the built code, which imports from both module systems', async () => {
    const esm = await run(
      'node',
      [
        '--input-type=module',
        '-e',
        "const m = await import('agentchat'); console.log(typeof m.Client)",
      ],
      consumer,
    );
    const cjs = await run(
      'node',
      ['-e', "console.log(typeof require('agentchat').Client)"],
      consumer,
    );
    expect(esm.trim()).toBe('function');
    expect(cjs.trim()).toBe('function');
  });

  it('runs both bins from the installed tarball', async () => {
    const bin = (name: string) => join(consumer, 'node_modules/.bin', name);
    const mock = await runProcess(bin('agentchat-mock'), ['--help'], { cwd: consumer });
    const mcp = await runProcess(bin('agentchat-mcp'), ['--help'], { cwd: consumer });

    expect(mock).toMatchObject({ code: 0, stderr: '' });
    expect(mock.stdout).toMatch(/^Usage: agentchat-mock/);
    expect(mcp).toMatchObject({ code: 0, stderr: '' });
    expect(mcp.stdout).toMatch(/^Usage: agentchat-mcp/);
  });

  it('serves the mock from the installed bin, and stops it on SIGTERM', async () => {
    const child = spawn(join(consumer, 'node_modules/.bin/agentchat-mock'), ['--port', '0'], {
      cwd: consumer,
      env: { ...process.env, PATH: `${join(repo, 'node_modules/.bin')}:${process.env.PATH}` },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    let printed = '';
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk;
        const match = /listening on (\S+)/.exec(printed);
        if (match) resolve(match[1] as string);
      });
      void exited.then(() => reject(new Error(`agentchat-mock exited:\n${printed}`)));
    });

    const response = await fetch(`${baseUrl}/v1/projects`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the tarball', agentId: 'agent_1' }),
    });
    child.kill('SIGTERM');

    expect(response.status).toBe(201);
    expect(await exited).toEqual([0, null]);
  });
});
