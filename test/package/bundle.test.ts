import { createHash } from 'node:crypto';
import { copyFile, cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { build, type Options } from 'tsup';
import { describe, expect, inject, it } from 'vitest';
import { buildViewAssets } from '../../src/mcp/apps/build-views.js';
import { viewHtml } from '../../src/mcp/apps/html.js';
import tsupConfig from '../../tsup.config.js';
import {
  bundleForBrowser as bundle,
  consumerPath,
  sdkMinifiedBudget,
  sizeBudget,
} from '../helpers/package-consumer.js';

/** Minified bytes each package contributes to the output, largest first. */
function bytesByPackage(metafile: Metafile): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? '(app)';
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Input files that put at least one byte into the output. */
function contributingInputs(metafile: Metafile): string[] {
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([path]) => path),
  );
}

/**
 * Strings only the OAuth 2.0 client-credentials provider holds, its defaults' names among them:
 * constants are where its code most easily stays behind in an app without it.
 */
const providerMarks = [
  'client_credentials',
  'grant_type',
  'refused to issue a token',
  'refreshMarginMs',
  'untimedTokenTtlMs',
];

describe('the browser bundle', () => {
  it(`adds at most ${sizeBudget / 1024} KiB min+gzip to an app using all three operations`, async () => {
    // Measured with the ky users install today, the newest the package's range allows (asked of
    // the registry at setup), not the lockfile's: a page is what its users' installs make it.
    const { version: ky } = JSON.parse(
      await readFile(consumerPath('node_modules/ky/package.json'), 'utf8'),
    ) as { version: string };
    expect(ky).toBe(inject('newestKy'));
    const { code, gzip, metafile } = await bundle('size-app.mjs');
    const breakdown = bytesByPackage(metafile)
      .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KiB`)
      .join(', ');
    const verdict =
      gzip <= sizeBudget
        ? `${((sizeBudget - gzip) / 1024).toFixed(2)} KiB under the ${sizeBudget / 1024} KiB budget`
        : `OVER the ${sizeBudget / 1024} KiB budget by ${((gzip - sizeBudget) / 1024).toFixed(2)} KiB`;
    console.log(
      `[size] agentchat in a browser app with ky ${ky}: ${(gzip / 1024).toFixed(3)} KiB min+gzip, ${verdict} ` +
        `(${(code.length / 1024).toFixed(1)} KiB minified: ${breakdown})`,
    );
    // The whole bundle is measured, the app's few lines included: the SDK's share is at most this.
    expect(gzip).toBeLessThanOrEqual(sizeBudget);
    // And the SDK's own code alone, so that ky's and zod's growth cannot hide the SDK's.
    const sdk = bytesByPackage(metafile).find(([name]) => name === 'agentchat')?.[1] ?? 0;
    expect(sdk).toBeLessThanOrEqual(sdkMinifiedBudget);
    // Browsers get the diagnostics channels' stub (package.json `imports`): neither their code
    // nor Node's module name is in a page.
    expect(code).not.toContain('diagnostics_channel');
    expect(code).not.toContain('agentchat:attempt');
    // Nor what only a server runtime can use (#server-runtime): the application's User-Agent
    // and the certificate problems' wording, which a page never sends or sees.
    const agentchatFiles = Object.keys(metafile.inputs).filter((path) =>
      path.startsWith('node_modules/agentchat/dist/'),
    );
    expect(agentchatFiles).toContain('node_modules/agentchat/dist/server-runtime.browser.js');
    expect(agentchatFiles.filter((path) => /server-runtime\.(js|cjs)$/.test(path))).toEqual([]);
    expect(code).not.toContain('networks.md');
    // The OAuth 2.0 provider, which this app does not import, is not in it, nor is jose.
    expect(providerMarks.filter((mark) => code.includes(mark))).toEqual([]);
    expect(contributingInputs(metafile).filter((path) => path.includes('/jose/'))).toEqual([]);
    // The figure means something only if the SDK and its dependencies are really in it (all but
    // jose, which only signing a private_key_jwt assertion loads, and ipaddr.js, which only
    // agentchat/mcp's sign-in front loads).
    const manifest = JSON.parse(
      await readFile(consumerPath('node_modules/agentchat/package.json'), 'utf8'),
    ) as { dependencies?: Record<string, string> };
    const loadedByAll = Object.keys(manifest.dependencies ?? {}).filter(
      (name) => name !== 'jose' && name !== 'ipaddr.js',
    );
    expect(bytesByPackage(metafile).map(([name]) => name)).toEqual(
      expect.arrayContaining(['agentchat', ...loadedByAll]),
    );
  });

  it('holds the OAuth 2.0 provider only in an app that uses it', async () => {
    const plain = await bundle('size-app.mjs');
    const withOAuth = await bundle('oauth-size-app.mjs');
    expect(providerMarks.filter((mark) => withOAuth.code.includes(mark))).toEqual(providerMarks);
    console.log(
      `[size] clientCredentials adds ${((withOAuth.gzip - plain.gzip) / 1024).toFixed(2)} KiB min+gzip to an app that uses it`,
    );
    expect(withOAuth.gzip).toBeGreaterThan(plain.gzip);
  });

  it('puts jose only where a private_key_jwt assertion is signed, in a chunk of its own', async () => {
    const plain = await bundle('size-app.mjs');
    const split = { splitting: true, outdir: consumerPath('split-out') };
    const [secret, signing] = await Promise.all([
      bundle('oauth-size-app.mjs', split),
      bundle('private-key-jwt-app.mjs', split),
    ]);
    // The app's own file holds no jose: a bundler that splits code loads it on the first signing.
    for (const app of [secret, signing]) {
      const main = Object.entries(app.metafile.outputs).find(([, output]) => output.entryPoint);
      expect(Object.keys(main?.[1].inputs ?? {}).filter((path) => path.includes('/jose/'))).toEqual(
        [],
      );
    }
    const inlined = await bundle('private-key-jwt-app.mjs');
    expect(contributingInputs(inlined.metafile).join('\n')).toMatch(/\/jose\//);
    console.log(
      `[size] private_key_jwt adds ${((inlined.gzip - plain.gzip) / 1024).toFixed(2)} KiB min+gzip ` +
        `to an app without OAuth (jose and the provider, in one file)`,
    );
  });

  it('leaves agentchat/testing and msw out of an app that imports but never uses them', async () => {
    const app = await bundle('tree-shaking-app.mjs');
    // The import was resolved, so leaving it out is tree-shaking, not a missing file.
    expect(Object.keys(app.metafile.inputs)).toContain(
      'node_modules/agentchat/dist/testing/index.js',
    );
    expect(contributingInputs(app.metafile).filter((path) => /testing|msw/.test(path))).toEqual([]);

    // Control: a bundler that ignored `sideEffects` would keep them, so the check above can fail.
    const ignoringSideEffects = await bundle('tree-shaking-app.mjs', { ignoreAnnotations: true });
    expect(contributingInputs(ignoringSideEffects.metafile).join('\n')).toMatch(/msw/);
  });

  it('leaves agentchat/mcp and the MCP SDK out of an app that imports but never uses them', async () => {
    const app = await bundle('mcp-unused-app.mjs');
    // The import was resolved, so leaving it out is tree-shaking, not a missing file.
    expect(Object.keys(app.metafile.inputs)).toContain('node_modules/agentchat/dist/mcp/index.js');
    expect(
      contributingInputs(app.metafile).filter((path) => /\/mcp\/|@modelcontextprotocol/.test(path)),
    ).toEqual([]);

    // Control: a bundler that ignored `sideEffects` would keep them, so the check above can fail.
    const ignoringSideEffects = await bundle('mcp-unused-app.mjs', { ignoreAnnotations: true });
    expect(contributingInputs(ignoringSideEffects.metafile).join('\n')).toMatch(
      /@modelcontextprotocol\/server/,
    );
  });

  it('is byte for byte the bundle a build without agentchat/mcp and agentchat/ai-sdk gives', async () => {
    const withoutMcp = await installBuildWithoutMcp();
    for (const app of CLIENT_APPS) {
      const [shipped, control] = await Promise.all([
        bundle(app),
        bundle(app, { absWorkingDir: withoutMcp, entryPoints: [join(withoutMcp, app)] }),
      ]);
      // The control really is a build without the MCP entry, bundled from its own folder.
      expect(Object.keys(control.metafile.inputs).join('\n')).not.toContain(
        'node_modules/agentchat/dist/mcp',
      );
      expect({ app, bytes: shipped.code.length, sha256: sha256(shipped.code) }).toEqual({
        app,
        bytes: control.code.length,
        sha256: sha256(control.code),
      });
    }
  });

  it('adds nothing to an app that imports the client but never calls it', async () => {
    const app = await bundle('unused-import-app.mjs');
    expect(
      contributingInputs(app.metafile).filter((path) => path.includes('node_modules')),
    ).toEqual([]);
  });
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The apps whose bundles must not change by a byte when the package gains an entry point. */
const CLIENT_APPS = ['size-app.mjs', 'unused-import-app.mjs', 'tree-shaking-app.mjs'];

/**
 * Builds the package with this repo's tsup configuration minus the MCP and agent framework entries
 * (the package as it was before it had them) and lays it out in a folder of its own exactly as the consumer has the
 * shipped one: the installed manifest, copies of the runtime dependencies in node_modules, and the
 * apps at the top. Equal layouts matter: esbuild's minified names depend on the files' paths.
 * Returns the folder to bundle from.
 */
async function installBuildWithoutMcp(): Promise<string> {
  const folder = consumerPath('without-mcp');
  const modules = join(folder, 'node_modules');
  const manifest = JSON.parse(
    await readFile(consumerPath('node_modules/agentchat/package.json'), 'utf8'),
  ) as { dependencies?: Record<string, string> };
  await mkdir(join(modules, 'agentchat'), { recursive: true });
  await copyFile(
    consumerPath('node_modules/agentchat/package.json'),
    join(modules, 'agentchat/package.json'),
  );
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    await cp(consumerPath('node_modules', dependency), join(modules, dependency), {
      recursive: true,
    });
  }
  const configs = (Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig]) as Options[];
  for (const options of configs) {
    const entry = Object.fromEntries(
      Object.entries(options.entry as Record<string, string>).filter(
        ([name]) => !/^(mcp|ai-sdk|openai-agents|langchain|mastra)\//.test(name),
      ),
    );
    if (Object.keys(entry).length === 0) continue;
    // JavaScript only: the browser bundle does not read declarations or source maps.
    await build({
      ...options,
      entry,
      outDir: join(modules, 'agentchat/dist'),
      dts: false,
      sourcemap: false,
      clean: false,
      silent: true,
      config: false,
    });
  }
  for (const app of CLIENT_APPS) await copyFile(consumerPath(app), join(folder, app));
  return folder;
}

describe('the MCP Apps views', () => {
  /** What a view may weigh gzipped (api.md): the extension's `App` class alone is about 129 KiB. */
  const viewBudget = 160 * 1024;

  it(`are each at most ${viewBudget / 1024} KiB gzip, as the build makes them`, async () => {
    const { assets } = await buildViewAssets();
    for (const view of ['chat', 'project'] as const) {
      const html = viewHtml(view, assets);
      const gzip = gzipSync(html, { level: 9 }).length;
      console.log(
        `[size] the ${view} view: ${(gzip / 1024).toFixed(2)} KiB gzip, ` +
          `${((viewBudget - gzip) / 1024).toFixed(2)} KiB under the ${viewBudget / 1024} KiB budget ` +
          `(${(html.length / 1024).toFixed(1)} KiB as sent)`,
      );
      expect(gzip).toBeLessThanOrEqual(viewBudget);
    }
  });
});
