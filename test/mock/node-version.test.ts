import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';

/**
 * A Node.js older than msw 3 needs: Debian's own `node` (20) on the machines this repo is built
 * on. `OLD_NODE` points elsewhere where that is not so.
 */
const OLD_NODE = process.env.OLD_NODE ?? '/usr/bin/node';
const repo = new URL('../..', import.meta.url).pathname;
let scratch: string;

/** agentchat/testing as one ES module, with msw left to be resolved from the repo's node_modules. */
async function bundleTesting(file: string, msw: 'msw' | 'msw2'): Promise<string> {
  const outfile = join(scratch, file);
  await build({
    entryPoints: [join(repo, 'src/testing/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    alias: msw === 'msw2' ? { msw: 'msw2' } : {},
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

/** Imports the bundle on the old Node.js and, if that works, asks the mock for a project. */
async function importOnOldNode(bundle: string) {
  const program = `
    const { createMockService } = await import(${JSON.stringify(bundle)});
    const { getResponse } = await import(${JSON.stringify(bundle.endsWith('msw2.mjs') ? 'msw2' : 'msw')});
    const mock = createMockService();
    const response = await getResponse(mock.handlers, new Request(mock.baseUrl + '/v1/projects', {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test' },
      body: JSON.stringify({ name: 'Demo', agentId: 'agent_1' }),
    }));
    console.log('status', response.status);
  `;
  const file = `${bundle}.run.mjs`;
  await writeFile(file, program);
  return runProcess(OLD_NODE, [file], { cwd: repo });
}

beforeAll(async () => {
  await mkdir(join(repo, '.tmp'), { recursive: true });
  // Inside the repo, so that `msw` and `msw2` resolve from its node_modules.
  scratch = await mkdtemp(join(repo, '.tmp', 'node-version-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('agentchat/testing on a Node.js older than msw needs', () => {
  it('runs on an old Node.js here', async () => {
    const { stdout } = await runProcess(OLD_NODE, ['--version']);
    const [major = 0, minor = 0] = stdout.trim().slice(1).split('.').map(Number);
    expect(major * 100 + minor, `${OLD_NODE} must be older than Node.js 22.12`).toBeLessThan(2212);
  });

  it('fails on import with msw 3, naming the Node.js version msw needs', async () => {
    const { code, stdout, stderr } = await importOnOldNode(await bundleTesting('msw3.mjs', 'msw'));

    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /agentchat\/testing: msw 3 needs Node\.js 22\.12\.0 or later, and this is Node\.js \d+\.\d+\.\d+\. Upgrade Node\.js, or install msw 2/,
    );
    expect(stderr).not.toContain('withResolvers');
  });

  it('works with msw 2, which runs on that Node.js', async () => {
    const { code, stdout, stderr } = await importOnOldNode(await bundleTesting('msw2.mjs', 'msw2'));

    expect(stderr).toBe('');
    expect(stdout.trim()).toBe('status 201');
    expect(code).toBe(0);
  });
});
