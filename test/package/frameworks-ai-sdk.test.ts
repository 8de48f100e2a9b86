/**
 * agentchat/ai-sdk from the packed tarball, installed beside only the AI SDK, at both ends of the
 * range it supports (6.0.0, the first with Standard Schema tools and tool approval; the latest 7):
 * consumer/ai-sdk-scenario.mjs runs the AI SDK's own loop with its mock model against the mock
 * service, and this test holds the one request it must abort.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { describe, expect, inject, it } from 'vitest';
import { workerCompatibilityDate } from '../../scripts/runtimes/matrix.js';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { runAppPage, serveApps, startMockForApps } from '../helpers/app-page.js';
import { useFrameworkConsumers } from '../helpers/framework-consumer.js';
import { bundleForBrowser, useMockServer } from '../helpers/package-consumer.js';

const mock = useMockServer();
const { projectWith, runScenario } = useFrameworkConsumers('ai-sdk', {
  files: ['ai-sdk-scenario.mjs', 'ai-sdk-loop.mjs', 'ai-sdk-worker.mjs', 'ai-sdk-browser-app.mjs'],
  mock,
});

/** The little of miniflare's API used here; it is installed in the runtime cache, not the repo. */
type MiniflareConstructor = new (options: {
  modules: boolean;
  script: string;
  compatibilityDate: string;
}) => { dispatchFetch(url: URL): Promise<Response>; dispose(): Promise<void> };

const VERSIONS = { 'ai 6.0.0': 'ai@6.0.0', 'ai 7': 'ai@^7.0.0' } as const;

describe.each(Object.entries(VERSIONS))('agentchat/ai-sdk with %s', (label, spec) => {
  it("runs the three tools in the AI SDK's loop: results, errors, approval, scope and abort", async () => {
    const folder = await projectWith([spec, 'zod@^4']);
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
    const folder = await projectWith([VERSIONS['ai 7'], 'zod@^4']);
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
    const folder = await projectWith([VERSIONS['ai 7'], 'zod@^4']);
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
