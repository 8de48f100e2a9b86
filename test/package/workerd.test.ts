import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { workerCompatibilityDate } from '../../scripts/runtimes/matrix.js';
import { startAuthorizationServer } from '../helpers/authorization-server.js';
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

/** Bundles a worker from the consumer's folder the way wrangler does, and starts it in workerd. */
async function startWorker(entry: string) {
  // Bundled the way wrangler bundles a worker: workerd resolves no npm packages itself.
  const bundle = await build({
    entryPoints: [consumerPath(entry)],
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
  // A worker is a server: `workerd` comes before `browser` in package.json's `#server-runtime`,
  // so that it names the application in its User-Agent and reads a failed connection's causes.
  expect(Object.keys(bundle.metafile.inputs)).toContain(
    'node_modules/agentchat/dist/server-runtime.js',
  );
  const { Miniflare } = (await import(/* @vite-ignore */ pathToFileURL(miniflare.entry).href)) as {
    Miniflare: MiniflareConstructor;
  };
  return new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]?.text ?? '',
    compatibilityDate: workerCompatibilityDate,
  });
}

describe(`Cloudflare workerd (miniflare ${miniflare.version})`, () => {
  it('runs the scenario in a worker bundled from the ESM build, without nodejs_compat', async () => {
    const worker = await startWorker('worker.mjs');
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

  it('discovers the token endpoint and signs private_key_jwt with Web Crypto, without nodejs_compat', async () => {
    const server = await startAuthorizationServer();
    const worker = await startWorker('oauth-worker.mjs');
    try {
      const { clientId, keyId, key } = server.keyClient;
      const url = new URL('http://worker.test/');
      const params = {
        issuer: server.issuer,
        clientId,
        keyId,
        pem: key.pem,
        jwk: JSON.stringify(key.jwk),
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      const response = await worker.dispatchFetch(url);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      expect(JSON.parse(text)).toEqual({
        pem: { tokens: 2, opaque: true },
        jwk: { tokens: 2, opaque: true },
        refused: 'invalid_client',
      });
    } finally {
      await worker.dispose();
      await server.close();
    }
  });
});
