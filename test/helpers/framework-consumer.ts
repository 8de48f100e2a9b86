/**
 * The packed tarball installed beside one agent framework, and that framework's scenario run
 * there: the set-up test/package/frameworks-*.test.ts share.
 *
 * A scenario (`consumer/<framework>-scenario.mjs`, given the mock's base URL and a label) runs the
 * framework's own loop against the mock service, sends its parent `waiting` before the run it
 * must abort, is sent `abort` once the mock holds that run's request (`/v1/projects/proj_hang`,
 * enqueued by the test as a hanging fault), and prints its findings as JSON on its last line.
 */
import { execFile, fork } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, inject } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';

const run = promisify(execFile);

/** The repo's Node 22 first, as `npm run test:package` puts it. */
export const CONSUMER_PATH = `${resolve(import.meta.dirname, '../../node_modules/.bin')}:${process.env.PATH}`;

/** The path of the request a scenario's aborted run leaves hanging at the mock. */
const HANGING_PATH = '/v1/projects/proj_hang';

export interface FrameworkConsumers {
  /** A new project with the tarball and `packages` (npm specs) installed, nothing else. */
  projectWith(packages: readonly string[]): Promise<string>;
  /** Runs the framework's scenario in `folder` and resolves to its findings. */
  runScenario(folder: string, label: string): Promise<Record<string, unknown>>;
  /** What the consumer's programs run with: the repo's Node first, no secret of this process. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Consumers of one framework for this test file: `files` (under test/package/consumer) are
 * copied into each project with watched-client.mjs, `extraEnv` is added to what its programs see (a framework's
 * telemetry switched off), and every project is removed after the file.
 */
export function useFrameworkConsumers(
  framework: string,
  options: {
    files: readonly string[];
    mock: { readonly server: MockServer };
    extraEnv?: Readonly<Record<string, string>>;
  },
): FrameworkConsumers {
  const env = { PATH: CONSUMER_PATH, HOME: process.env.HOME, ...options.extraEnv };
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  async function projectWith(packages: readonly string[]): Promise<string> {
    const folder = await mkdtemp(join(tmpdir(), `agentchat-${framework}-`));
    folders.push(folder);
    await writeFile(join(folder, 'package.json'), '{ "private": true, "type": "module" }\n');
    // Every scenario takes its client's options from watched-client.mjs.
    for (const file of ['watched-client.mjs', ...options.files]) {
      await cp(join(import.meta.dirname, '../package/consumer', file), join(folder, file));
    }
    await run(
      'npm',
      ['install', inject('tarball'), ...packages, '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: folder, env: { ...process.env, PATH: CONSUMER_PATH }, maxBuffer: 16 * 1024 * 1024 },
    );
    return folder;
  }

  function runScenario(folder: string, label: string): Promise<Record<string, unknown>> {
    const { mock } = options;
    return new Promise((resolvePromise, reject) => {
      let stdout = '';
      let stderr = '';
      const child = fork(`${framework}-scenario.mjs`, [mock.server.baseUrl, label], {
        cwd: folder,
        env,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      child.stdout?.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr?.on('data', (chunk) => {
        stderr += chunk;
      });
      child.on('message', async (message) => {
        if (message !== 'waiting') return;
        await expect
          .poll(
            () =>
              mock.server.service
                .requestLog()
                .some((request) => request.path.endsWith(HANGING_PATH)),
            { timeout: 60_000 },
          )
          .toBe(true);
        child.send('abort');
      });
      child.on('error', reject);
      child.on('exit', (code) => {
        const last = stdout.trim().split('\n').at(-1) ?? '';
        if (code === 0) resolvePromise(JSON.parse(last) as Record<string, unknown>);
        else reject(new Error(`the scenario exited with ${code}:\n${stdout}\n${stderr}`));
      });
    });
  }

  return { projectWith, runScenario, env };
}
