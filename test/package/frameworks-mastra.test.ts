/**
 * agentchat/mastra from the packed tarball, installed beside only @mastra/core (and zod, its
 * peer), at both ends of the range it supports (1.11.0, the first 1.x to read a tool's Standard
 * JSON Schema; the latest 1.x): consumer/mastra-scenario.mjs runs Mastra's own agent loop with a
 * scripted model (consumer/mastra-model.mjs) against the mock service, and this test holds the one
 * request it must abort; consumer/mastra-cjs.cjs does a run through require().
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
/** Mastra reports feature usage to its own servers from some code paths: not from these tests. */
const ENV = { PATH, HOME: process.env.HOME, MASTRA_TELEMETRY_DISABLED: '1' };

const VERSIONS = {
  '@mastra/core 1.11.0': '@mastra/core@1.11.0',
  '@mastra/core 1': '@mastra/core@^1.71.0',
} as const;

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A project with the tarball and one version of @mastra/core (and zod, its peer), nothing else. */
async function projectWith(spec: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'agentchat-mastra-'));
  folders.push(folder);
  await writeFile(join(folder, 'package.json'), '{ "private": true, "type": "module" }\n');
  for (const file of ['mastra-scenario.mjs', 'mastra-cjs.cjs', 'mastra-model.mjs']) {
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
    const child = fork('mastra-scenario.mjs', [mock.server.baseUrl, label], {
      cwd: folder,
      env: ENV,
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

/** The names of the projects the mock was asked to create. */
const createdNames = () =>
  mock.server.service.requestLog().map((request) => (request.body as { name?: string })?.name);

describe.each(Object.entries(VERSIONS))('agentchat/mastra with %s', (label, spec) => {
  it("runs the three tools in Mastra's loop: results, errors, approval, scope and abort", async () => {
    const folder = await projectWith(spec);
    mock.server.service.enqueue({ kind: 'hang', path: '/v1/projects/proj_hang' });

    const result = await runScenario(folder, label);

    const [created, read, reply] = result.seen as Array<{ type: string; value: object }>;
    expect(created).toEqual({
      type: 'json',
      value: {
        id: expect.stringMatching(/^proj_/),
        name: `Launch ${label}`,
        status: 'active',
        createdAt: expect.any(String),
      },
    });
    expect(read).toMatchObject({ type: 'json', value: { agentId: 'agent_support', metadata: {} } });
    expect(reply).toEqual({
      type: 'json',
      value: { message: expect.any(String), suggestions: expect.any(Array) },
    });
    expect(result.text).toBe('Done.');
    expect(result.toolError).toEqual({
      // Mastra 1.11 gives the model the message as text; later 1.x as an error text.
      type: expect.stringMatching(/^(text|error-text)$/),
      value: expect.stringMatching(/No project with id "proj_missing" \(request id req_\w+\)$/),
    });
    expect(JSON.stringify(result.refused)).toMatch(/did you mean agentId/);
    expect(result.keyInPrompts).toBe(false);
    expect(result.approval).toEqual({
      finishReason: 'suspended',
      toolName: 'create_project',
      sentBeforeApproval: 0,
      afterApproval: 'Created.',
      sentAfterApproval: 1,
    });
    const names = createdNames();
    expect(names).toContain(`Launch ${label}`);
    expect(names.filter((name) => name === `Approved ${label}`)).toHaveLength(1);
    expect(names).not.toContain(`Refused ${label}`);
    expect(result.offered).toEqual([['get_project'], ['create_project', 'send_message']]);
    // The aborted call ends the run: the model is not asked again.
    expect(result.abortedAfterSteps).toBe(1);
    expect(result.requestSignalAborted).toEqual([true]);

    const cjs = await run(process.execPath, ['mastra-cjs.cjs', mock.server.baseUrl, label], {
      cwd: folder,
      env: ENV,
    });
    expect(JSON.parse(cjs.stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      text: 'Created.',
      created: {
        type: 'json',
        value: expect.objectContaining({ name: `CJS ${label}`, status: 'active' }),
      },
      refused: true,
    });
  }, 240_000);
});
