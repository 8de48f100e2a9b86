import { readFile } from 'node:fs/promises';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleForBrowser as bundle, consumerPath } from '../helpers/package-consumer.js';

/**
 * The most the SDK may add to a browser app, minified and gzipped. When a change goes over it, the
 * test prints where the bytes go, package by package; trim those before raising the budget.
 */
const sizeBudget = 14 * 1024;

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

describe('the browser bundle', () => {
  it(`adds at most ${sizeBudget / 1024} KiB min+gzip to an app using all three operations`, async () => {
    const { code, gzip, metafile } = await bundle('size-app.mjs');
    const breakdown = bytesByPackage(metafile)
      .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KiB`)
      .join(', ');
    const verdict =
      gzip <= sizeBudget
        ? `${((sizeBudget - gzip) / 1024).toFixed(2)} KiB under the ${sizeBudget / 1024} KiB budget`
        : `OVER the ${sizeBudget / 1024} KiB budget by ${((gzip - sizeBudget) / 1024).toFixed(2)} KiB`;
    console.log(
      `[size] agentchat in a browser app: ${(gzip / 1024).toFixed(2)} KiB min+gzip, ${verdict} ` +
        `(${(code.length / 1024).toFixed(1)} KiB minified: ${breakdown})`,
    );
    // The whole bundle is measured, the app's few lines included: the SDK's share is at most this.
    expect(gzip).toBeLessThanOrEqual(sizeBudget);
    // The figure means something only if the SDK and its dependencies are really in it.
    const manifest = JSON.parse(
      await readFile(consumerPath('node_modules/agentchat/package.json'), 'utf8'),
    ) as { dependencies?: Record<string, string> };
    expect(bytesByPackage(metafile).map(([name]) => name)).toEqual(
      expect.arrayContaining(['agentchat', ...Object.keys(manifest.dependencies ?? {})]),
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

  it('adds nothing to an app that imports the client but never calls it', async () => {
    const app = await bundle('unused-import-app.mjs');
    expect(
      contributingInputs(app.metafile).filter((path) => path.includes('node_modules')),
    ).toEqual([]);
  });
});
