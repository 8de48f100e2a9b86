/**
 * The view build step, run by `npm run build` (tsup.config.ts) and, from source, on first use
 * (assets.ts): views/index.ts bundled by esbuild with the extension's `App` class into one
 * script and one style sheet, which each view's document (html.ts) holds inline, so that a host
 * shows it within its default Content-Security-Policy: no request, no external resource.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { ViewAssets } from './html.js';

const viewSources = join(dirname(fileURLToPath(import.meta.url)), 'views');

/** The assets, and the files the script was made from, relative to `outdir`. */
export interface BuiltViewAssets {
  readonly assets: ViewAssets;
  readonly sources: readonly string[];
}

/** Builds the views' script and style; `outdir` is where the build writes them (dist/mcp/apps). */
export async function buildViewAssets(outdir = join(viewSources, '..')): Promise<BuiltViewAssets> {
  const result = await build({
    entryPoints: [join(viewSources, 'index.ts')],
    outdir,
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    // What the hosts' webviews run: Chromium, Safari and Firefox of the last two years.
    target: ['chrome111', 'safari16.4', 'firefox115'],
    legalComments: 'none',
    // zod, which the extension's `App` class and the MCP client validate messages with, tries
    // `new Function` on its first parse, at load, to speed up its parsing; the host's default
    // Content-Security-Policy has no `unsafe-eval`, and the attempt shows there as a violation.
    // zod reads this global configuration as it loads, before any parse.
    banner: { js: 'globalThis.__zod_globalConfig={jitless:true};' },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const text = (extension: string): string => {
    const file = result.outputFiles.find((output) => output.path.endsWith(`index${extension}`));
    if (file === undefined) throw new Error(`The views' build wrote no ${extension} file.`);
    return file.text.trim();
  };
  const assets = { script: text('.js'), style: text('.css') };
  // Either would end its element early. esbuild escapes both; this says so if it ever did not.
  if (/<\/script/i.test(assets.script) || /<\/style/i.test(assets.style)) {
    throw new Error("The views' build holds a closing tag of the element it goes into.");
  }
  const inputs = Object.values(result.metafile.outputs).flatMap((output) =>
    Object.keys(output.inputs),
  );
  return {
    assets,
    sources: [...new Set(inputs)].map((input) => relative(outdir, join(process.cwd(), input))),
  };
}
