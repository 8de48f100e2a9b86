/**
 * `npm install` in a clone leaves package-lock.json as committed, with the npm CONTRIBUTING.md
 * names (npm 11, as the machines that run the tests have), and says once what npm's warnings
 * about an older Node.js or npm mean.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';

const repo = new URL('../..', import.meta.url).pathname;
const scratch = await mkdtemp(join(tmpdir(), 'agentchat-lockfile-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('package-lock.json', () => {
  it('is what npm install writes for package.json: unchanged by an install', async () => {
    for (const file of ['package.json', 'package-lock.json']) {
      await copyFile(join(repo, file), join(scratch, file));
    }
    // The lockfile alone, from npm's cache: what `npm install` would write, without installing.
    const npm = await runProcess(
      'npm',
      [
        'install',
        '--package-lock-only',
        '--ignore-scripts',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: scratch },
    );
    expect(npm.code, npm.stderr).toBe(0);

    const committed = await readFile(join(repo, 'package-lock.json'), 'utf8');
    expect(await readFile(join(scratch, 'package-lock.json'), 'utf8')).toBe(committed);
  });
});

describe('the install notice', () => {
  const notice = (agent: string) =>
    runProcess('node', [join(repo, 'scripts/engine-notice.mjs')], {
      env: { ...process.env, npm_config_user_agent: agent },
    });

  it('explains the EBADENGINE warnings once when npm runs on an older Node.js', async () => {
    const { stdout } = await notice('npm/11.19.1 node/v20.20.2 linux x64 workspaces/false');
    expect(stdout).toMatch(/^agentchat: npm ran on Node\.js v20\.20\.2, .*EBADENGINE/);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('names the npm that keeps the lockfile when another runs', async () => {
    const { stdout } = await notice('npm/10.9.9 node/v22.23.3 linux x64 workspaces/false');
    expect(stdout).toMatch(/package-lock\.json is kept by npm 11, and npm 10 rewrites it/);
  });

  it('says nothing on the Node.js and npm the repository asks for', async () => {
    expect((await notice('npm/11.19.1 node/v22.23.3 linux x64 workspaces/false')).stdout).toBe('');
  });
});
