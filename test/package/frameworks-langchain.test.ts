/**
 * agentchat/langchain from the packed tarball, installed beside only LangChain, at both ends of
 * the range it supports (@langchain/core 1.0.1, the first LangGraph's agents take, with the first
 * langchain 1.x; the latest of both):
 * consumer/langchain-scenario.mjs runs createAgent's loop with a scripted model against the mock
 * service, and this test holds the one request it must abort.
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

/**
 * Each end of the range: `@langchain/core`, and the `langchain` (with its LangGraph) beside it. At
 * the first end LangGraph's checkpoint package is pinned too: its newest 1.x, which npm would pick,
 * needs a newer @langchain/core.
 */
const VERSIONS = {
  'core 1.0.1': [
    '@langchain/core@1.0.1',
    'langchain@1.0.1',
    '@langchain/langgraph@1.0.0',
    '@langchain/langgraph-checkpoint@1.0.1',
  ],
  'core 1 latest': ['@langchain/core@^1.4.0', 'langchain@^1.5.0', '@langchain/langgraph@^1.7.0'],
} as const;

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A project with the tarball and one version of LangChain, nothing else. */
async function projectWith(specs: readonly string[]): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'agentchat-langchain-'));
  folders.push(folder);
  await writeFile(join(folder, 'package.json'), '{ "private": true, "type": "module" }\n');
  for (const file of ['langchain-scenario.mjs', 'langchain-model.mjs']) {
    await cp(join(import.meta.dirname, 'consumer', file), join(folder, file));
  }
  await run(
    'npm',
    ['install', inject('tarball'), ...specs, '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: folder, env: { ...process.env, PATH }, maxBuffer: 16 * 1024 * 1024 },
  );
  return folder;
}

/** Runs the scenario, aborting its last run once the mock holds that run's request. */
function runScenario(folder: string, label: string): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    const child = fork('langchain-scenario.mjs', [mock.server.baseUrl, label], {
      cwd: folder,
      env: { PATH, HOME: process.env.HOME },
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

describe.each(Object.entries(VERSIONS))('agentchat/langchain with %s', (label, specs) => {
  it("runs the three tools in createAgent's loop: results, errors, approval, scope, CJS and abort", async () => {
    const folder = await projectWith(specs);
    mock.server.service.enqueue({ kind: 'hang', path: '/v1/projects/proj_hang' });

    const result = await runScenario(folder, label);

    const [created, read, reply] = result.seen as Array<Record<string, unknown>>;
    expect(created).toEqual({
      name: 'create_project',
      status: 'success',
      value: {
        id: expect.stringMatching(/^proj_/),
        name: `Launch ${label}`,
        status: 'active',
        createdAt: expect.any(String),
      },
      artifactIsValue: true,
    });
    expect(read).toMatchObject({
      name: 'get_project',
      status: 'success',
      value: { agentId: 'agent_support', metadata: {} },
      artifactIsValue: true,
    });
    expect(reply).toEqual({
      name: 'send_message',
      status: 'success',
      value: { message: expect.any(String), suggestions: expect.any(Array) },
      artifactIsValue: true,
    });
    expect(result.text).toBe('Done.');

    const [missing, refused] = result.errors as Array<Record<string, string>>;
    expect(missing).toEqual({
      name: 'get_project',
      status: 'error',
      text: expect.stringMatching(
        /^NotFoundError: .*No project with id "proj_missing".*\(request id req_\w+\)$/,
      ),
    });
    // LangChain's own refusal of arguments outside the schema: langchain 1.0 gives it no status.
    expect(refused).toMatchObject({ name: 'create_project' });
    expect(refused?.text).toMatch(/did not match expected schema/);
    expect(result.keyInMessages).toBe(false);

    expect(result.approvalRequests).toEqual(['create_project']);
    expect(result.sentWhileWaiting).toBe(0);
    expect(result.afterApproval).toBe('Created.');
    const names = mock.server.service.requestLog().map((r) => (r.body as { name?: string })?.name);
    expect(names).toContain(`Approved ${label}`);
    expect(names).not.toContain(`Refused ${label}`);

    expect(result.offered).toEqual([['get_project'], ['create_project', 'send_message']]);
    expect(result.cjs).toEqual({ differentModule: true, toolMessage: true, status: 'error' });
    expect(result.aborted).toBe('the user moved on');
    expect(result.requestSignalAborted).toEqual([true]);
  }, 240_000);
});
