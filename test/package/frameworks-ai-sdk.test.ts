/**
 * agentchat/ai-sdk from the packed tarball, installed beside only the AI SDK, at both ends of the
 * range it supports (6.0.0, the first with Standard Schema tools and tool approval; the latest 7):
 * consumer/ai-sdk-scenario.mjs runs the AI SDK's own loop with its mock model against the mock
 * service, and this test holds the one request it must abort.
 */
import { execFile, fork } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { workerCompatibilityDate } from '../../scripts/runtimes/matrix.js';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { runAppPage, serveApps, startMockForApps } from '../helpers/app-page.js';
import { bundleForBrowser, useMockServer } from '../helpers/package-consumer.js';

const run = promisify(execFile);
const mock = useMockServer();
/** The repo's Node 22 first, as `npm run test:package` puts it. */
const PATH = `${resolve(import.meta.dirname, '../../node_modules/.bin')}:${process.env.PATH}`;

/** The little of miniflare's API used here; it is installed in the runtime cache, not the repo. */
type MiniflareConstructor = new (options: {
  modules: boolean;
  script: string;
  compatibilityDate: string;
}) => { dispatchFetch(url: URL): Promise<Response>; dispose(): Promise<void> };

const VERSIONS = { 'ai 6.0.0': 'ai@6.0.0', 'ai 7': 'ai@^7.0.0' } as const;

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A project with the tarball and one version of `ai` (and zod, its peer), nothing else. */
async function projectWith(spec: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'agentchat-ai-sdk-'));
  folders.push(folder);
  await writeFile(join(folder, 'package.json'), '{ "private": true, "type": "module" }\n');
  for (const file of [
    'ai-sdk-scenario.mjs',
    'ai-sdk-loop.mjs',
    'ai-sdk-worker.mjs',
    'ai-sdk-browser-app.mjs',
  ]) {
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
    const child = fork('ai-sdk-scenario.mjs', [mock.server.baseUrl, label], {
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

describe.each(Object.entries(VERSIONS))('agentchat/ai-sdk with %s', (label, spec) => {
  it("runs the three tools in the AI SDK's loop: results, errors, approval, scope and abort", async () => {
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
      isNotFound: true,
      seen: {
        type: 'error-text',
        // AI SDK 7 puts the error's name before its message; 6 gives the message alone.
        value: expect.stringMatching(/No project with id "proj_missing" \(request id req_\w+\)$/),
      },
    });
    expect(result.keyInPrompts).toBe(false);
    expect(result.approvalRequests).toEqual(['create_project']);
    const names = mock.server.service.requestLog().map((r) => (r.body as { name?: string })?.name);
    expect(names).toContain(`Launch ${label}`);
    expect(names).not.toContain(`Unapproved ${label}`);
    expect(result.offered).toEqual([['get_project'], ['create_project', 'send_message']]);
    expect(result.aborted).toBe('the user moved on');
    expect(result.requestSignalAborted).toEqual([true]);
  }, 240_000);
});

/** What consumer/ai-sdk-loop.mjs returns when the model read each tool's typed result. */
function expectLoopResults(result: unknown): void {
  const { seen } = result as { seen: Array<{ type: string; value: object }> };
  expect(seen.map((output) => output.type)).toEqual(['json', 'json', 'json']);
  expect(seen[1]?.value).toMatchObject({ name: 'Launch', agentId: 'agent_support' });
  expect(seen[2]?.value).toEqual({ message: expect.any(String), suggestions: expect.any(Array) });
}

describe('agentchat/ai-sdk in Cloudflare workerd', () => {
  it("runs the AI SDK's loop with the tools in a worker bundled from the ESM build", async () => {
    const folder = await projectWith(VERSIONS['ai 7']);
    // Bundled the way wrangler bundles a worker: workerd resolves no npm packages itself.
    const bundle = await build({
      entryPoints: [join(folder, 'ai-sdk-worker.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'],
      absWorkingDir: folder,
      write: false,
      metafile: true,
    });
    expect(Object.keys(bundle.metafile.inputs)).toContain(
      'node_modules/agentchat/dist/ai-sdk/index.js',
    );
    const { Miniflare } = (await import(
      /* @vite-ignore */ pathToFileURL(inject('runtimes').miniflare.entry).href
    )) as { Miniflare: MiniflareConstructor };
    const worker = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]?.text ?? '',
      compatibilityDate: workerCompatibilityDate,
    });
    try {
      const url = new URL('http://worker.test/');
      url.searchParams.set('baseUrl', mock.server.baseUrl);
      const response = await worker.dispatchFetch(url);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expectLoopResults(JSON.parse(text));
    } finally {
      await worker.dispose();
    }
  }, 240_000);
});

describe('agentchat/ai-sdk in headless Chromium', () => {
  it("runs the AI SDK's loop with the tools in a page bundled from the ESM build", async () => {
    const folder = await projectWith(VERSIONS['ai 7']);
    const { code, metafile } = await bundleForBrowser('ai-sdk-browser-app.mjs', {
      entryPoints: [join(folder, 'ai-sdk-browser-app.mjs')],
      absWorkingDir: folder,
    });
    expect(Object.keys(metafile.inputs)).toContain('node_modules/agentchat/dist/ai-sdk/index.js');
    const browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
    const app = await serveApps({ app: code });
    // The mock allows the page's origin and no other.
    const service = await startMockForApps(app.origin);
    try {
      const { result } = await runAppPage(
        browser,
        `${app.origin}/app/?baseUrl=${encodeURIComponent(service.baseUrl)}`,
        service.baseUrl,
      );
      expectLoopResults(result);
    } finally {
      await browser.close();
      await service.stop();
      await app.close();
    }
  }, 240_000);
});
