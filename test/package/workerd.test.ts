import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { workerCompatibilityDate } from '../../scripts/runtimes/matrix.js';
import {
  consumerPath,
  createRequestOf,
  expectedScenario,
  expectedUserAgent,
  useMockServer,
} from '../helpers/package-consumer.js';

/** The little of miniflare's API used here; it is installed in the runtime cache, not the repo. */
type MiniflareConstructor = new (options: {
  modules: boolean;
  script: string;
  compatibilityDate: string;
}) => { dispatchFetch(url: URL): Promise<Response>; dispose(): Promise<void> };

const mock = useMockServer();
const { miniflare } = inject('runtimes');

describe(`Cloudflare workerd (miniflare ${miniflare.version})`, () => {
  it('runs the scenario in a worker bundled from the ESM build, without nodejs_compat', async () => {
    // Bundled the way wrangler bundles a worker: workerd resolves no npm packages itself.
    const bundle = await build({
      entryPoints: [consumerPath('worker.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'],
      absWorkingDir: consumerPath(),
      write: false,
      metafile: true,
    });
    expect(Object.keys(bundle.metafile.inputs)).toContain('node_modules/agentchat/dist/index.js');

    const { Miniflare } = (await import(
      /* @vite-ignore */ pathToFileURL(miniflare.entry).href
    )) as { Miniflare: MiniflareConstructor };
    const worker = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]?.text ?? '',
      compatibilityDate: workerCompatibilityDate,
    });
    try {
      const label = 'workerd';
      const url = new URL('http://worker.test/');
      url.searchParams.set('baseUrl', mock.server.baseUrl);
      url.searchParams.set('label', label);
      const response = await worker.dispatchFetch(url);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expect(JSON.parse(text)).toEqual(expectedScenario(label));
      // Workers are servers, not browsers: the SDK names itself there.
      expect(createRequestOf(mock.server, label).headers['user-agent']).toBe(expectedUserAgent());
    } finally {
      await worker.dispose();
    }
  });
});
