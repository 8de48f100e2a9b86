/**
 * Browser bundle size: esbuild bundles a small app making the three calls (min + gzip), once per
 * client. `agentchat` is bundled from the built dist, as an app's bundler would take it; ky + policy
 * is bench/ky-policy.ts as it is, with the SDK's schemas from the source.
 */

import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** The apps, by what they measure. */
export type AppName = 'agentchat' | 'openai' | 'ky' | 'ky+policy';

/** One app to bundle. */
interface App {
  name: AppName;
  label: string;
  source: string;
}

const APPS: readonly App[] = [
  {
    name: 'agentchat',
    label: 'agentchat (dist)',
    source: `
      import { Client } from './dist/index.js';
      const client = new Client({ apiKey: 'key', baseUrl: 'https://host/api', dangerouslyAllowBrowser: true });
      export async function run() {
        const { id } = await client.projects.create({ name: 'Demo', agentId: 'agent_1' });
        await client.projects.get(id);
        return client.chat.send({ projectId: id, message: 'Hello' });
      }`,
  },
  {
    name: 'openai',
    label: 'openai (client.get/post)',
    source: `
      import OpenAI from 'openai';
      const client = new OpenAI({ apiKey: 'key', baseURL: 'https://host/api', dangerouslyAllowBrowser: true });
      export async function run() {
        const { id } = await client.post('/v1/projects', { body: { name: 'Demo', agentId: 'agent_1' } });
        await client.get('/v1/projects/' + id);
        return client.post('/v1/projects/' + id + '/chat', { body: { message: 'Hello' } });
      }`,
  },
  {
    name: 'ky+policy',
    label: 'ky + policy (floor)',
    source: `
      import { createKyPolicyClient } from './bench/ky-policy.ts';
      const api = createKyPolicyClient({ baseUrl: 'https://host/api', apiKey: 'key' });
      export async function run() {
        const { id } = await api.createProject({ name: 'Demo', agentId: 'agent_1' });
        await api.getProject(id);
        return api.sendChat(id, 'Hello');
      }`,
  },
  {
    name: 'ky',
    label: 'ky alone (dependency)',
    source: `
      import ky from 'ky';
      const api = ky.create({ prefix: 'https://host/api', headers: { authorization: 'Bearer key' } });
      export async function run() {
        const { id } = await api.post('v1/projects', { json: { name: 'Demo', agentId: 'agent_1' } }).json();
        await api.get('v1/projects/' + id).json();
        return api.post('v1/projects/' + id + '/chat', { json: { message: 'Hello' } }).json();
      }`,
  },
];

/** Size of one bundled app, and how its minified bytes split between packages. */
export interface BundleSize {
  name: AppName;
  label: string;
  minified: number;
  gzipped: number;
  /** Minified bytes by package (`agentchat` for the SDK's own code), largest first. */
  byPackage: Array<[string, number]>;
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles every app; sizes in bytes. */
export async function measureBundleSizes(): Promise<BundleSize[]> {
  const sizes: BundleSize[] = [];
  for (const app of APPS) {
    const result = await build({
      stdin: { contents: app.source, resolveDir: root, sourcefile: 'app.js', loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const output = result.outputFiles[0];
    if (!output) throw new Error(`esbuild wrote nothing for ${app.label}`);
    sizes.push({
      name: app.name,
      label: app.label,
      minified: output.contents.byteLength,
      gzipped: gzipSync(output.contents, { level: 9 }).byteLength,
      byPackage: bytesByPackage(result.metafile),
    });
  }
  return sizes;
}

function bytesByPackage(metafile: Metafile): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(path);
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/**
 * `node_modules/zod/v4/mini/x.js` → `zod`; `node_modules/@scope/pkg/x.js` → `@scope/pkg`; the
 * built SDK → `agentchat`; its schemas and their helpers from the source → `agentchat schemas`.
 */
function packageOf(path: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (match?.[1]) return match[1];
  if (path.startsWith('dist/')) return 'agentchat';
  if (path.startsWith('src/')) return 'agentchat schemas';
  return 'app';
}
