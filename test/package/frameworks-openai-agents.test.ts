/**
 * agentchat/openai-agents from the packed tarball, installed beside only the OpenAI Agents SDK (and
 * zod, its peer), at both ends of the range it supports (0.20.0, the first; the newest 0.x):
 * consumer/openai-agents-scenario.mjs runs the Agents SDK's own loop with its scripted model
 * against the mock service, and this test holds the one request it must abort;
 * consumer/openai-agents-cjs.cjs runs the loop from CommonJS.
 */
import { execFile, fork } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { useMockServer } from '../helpers/package-consumer.js';

const run = promisify(execFile);
const mock = useMockServer();
/** The repo's Node 22 first, as `npm run test:package` puts it. */
const PATH = `${resolve(import.meta.dirname, '../../node_modules/.bin')}:${process.env.PATH}`;
/** The scripts' environment: no tracing export, which would otherwise try to reach OpenAI. */
const env = { PATH, HOME: process.env.HOME, OPENAI_AGENTS_DISABLE_TRACING: '1' };

const VERSIONS = {
  '@openai/agents 0.20.0': '@openai/agents@0.20.0',
  '@openai/agents newest': '@openai/agents@>=0.20.0 <1.0.0',
} as const;

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A project with the tarball and one version of `@openai/agents` (and zod), nothing else. */
async function projectWith(spec: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'agentchat-openai-agents-'));
  folders.push(folder);
  await writeFile(join(folder, 'package.json'), '{ "private": true, "type": "module" }\n');
  for (const file of ['openai-agents-scenario.mjs', 'openai-agents-cjs.cjs']) {
    await cp(join(import.meta.dirname, 'consumer', file), join(folder, file));
  }
  await run(
    'npm',
    ['install', inject('tarball'), spec, 'zod@^4', '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: folder, env: { ...process.env, PATH }, maxBuffer: 16 * 1024 * 1024 },
  );
  return folder;
}

/** Runs the scenario, aborting its last run once the mock holds that run's request. */
function runScenario(folder: string, label: string): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    const child = fork('openai-agents-scenario.mjs', [mock.server.baseUrl, label], {
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
              .some((request) => request.path.endsWith('/v1/projects/proj_hang')),
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

describe.each(Object.entries(VERSIONS))('agentchat/openai-agents with %s', (label, spec) => {
  it("runs the three tools in the Agents SDK's loop, from ESM and CJS: results, errors, approval, scope and abort", async () => {
    const folder = await projectWith(spec);
    mock.server.service.enqueue({ kind: 'hang', path: '/v1/projects/proj_hang' });

    const result = await runScenario(folder, label);

    const [created, read, reply] = result.seen as object[];
    expect(created).toEqual({
      id: expect.stringMatching(/^proj_/),
      name: `Launch ${label}`,
      status: 'active',
      createdAt: expect.any(String),
    });
    expect(read).toMatchObject({ agentId: 'agent_support', metadata: {} });
    expect(reply).toEqual({ message: expect.any(String), suggestions: expect.any(Array) });
    // The run's items hold the typed values the model read as JSON.
    expect(result.outputs).toEqual([created, read, reply]);
    expect(result.text).toBe('Done.');
    expect(result.toolError).toMatch(
      /^NotFoundError: .*No project with id "proj_missing".*\(request id req_\w+\)$/,
    );
    expect(result.keyInInputs).toBe(false);
    expect(result.interruptions).toEqual(['create_project']);
    expect(result.sentBeforeApproval).toBe(0);
    expect(result.afterApproval).toBe('Created.');
    expect(result.sentAfterApproval).toBe(1);
    const names = mock.server.service.requestLog().map((r) => (r.body as { name?: string })?.name);
    expect(names).toContain(`Approved ${label}`);
    expect(result.offered).toEqual([
      [['get_project', false]],
      [
        ['create_project', false],
        ['send_message', false],
      ],
    ]);
    expect(result.aborted).toBe('the user moved on');
    expect(result.requestSignalReasons).toEqual(['the user moved on']);
    expect(result.modelCallsAfterAbort).toBe(0);

    const { stdout } = await run('node', ['openai-agents-cjs.cjs', mock.server.baseUrl], {
      cwd: folder,
      env,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      text: 'Created.',
      seen: expect.objectContaining({ name: 'From CJS', status: 'active' }),
      entries: ['dist/index.cjs', 'dist/openai-agents/index.cjs'],
    });
  }, 240_000);
});
