/**
 * Production builds of a browser app from the consumer project (which installed the tarball)
 * with each bundler the packaging suite proves, the way their users run them: webpack 5, Vite and
 * Rollup, beside esbuild in package-consumer.ts. Each gives the one script the page loads.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import { minify } from 'terser';
import { build as viteBuild } from 'vite';
import webpack, { type Stats } from 'webpack';
import { bundleForBrowser, consumerPath } from './package-consumer.js';

/** A bundled app: its script, that script's size gzipped, and what the bundler warned of. */
export interface BundledApp {
  code: string;
  gzip: number;
  warnings: string[];
}

function bundled(code: string, warnings: string[] = []): BundledApp {
  return { code, gzip: gzipSync(code).length, warnings };
}

/** esbuild, as package-consumer.ts bundles the other browser apps. */
async function withEsbuild(entry: string): Promise<BundledApp> {
  return bundled((await bundleForBrowser(entry)).code);
}

/**
 * webpack 5 in production mode for the web, with its defaults otherwise. Among its warnings is
 * one for an asset over 244 KiB minified, as a `require` of the CJS build once gave.
 */
async function withWebpack(entry: string): Promise<BundledApp> {
  const outDir = await mkdtemp(consumerPath('webpack-'));
  try {
    const compiler = webpack({
      mode: 'production',
      target: 'web',
      context: consumerPath(),
      entry: `./${entry}`,
      output: { path: outDir, filename: 'app.js' },
    });
    const stats = await new Promise<Stats | undefined>((resolve, reject) =>
      compiler.run((error, result) => (error ? reject(error) : resolve(result))),
    );
    await new Promise((resolve) => compiler.close(resolve));
    if (!stats || stats.hasErrors()) {
      throw new Error(`webpack: ${stats?.toString({ all: false, errors: true })}`);
    }
    const warnings = stats.toJson({ all: false, warnings: true }).warnings ?? [];
    return bundled(
      await readFile(join(outDir, 'app.js'), 'utf8'),
      warnings.map((warning) => warning.message),
    );
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** `vite build` of an app whose entry is the script, with Vite's defaults. */
async function withVite(entry: string): Promise<BundledApp> {
  const output = await viteBuild({
    root: consumerPath(),
    configFile: false,
    logLevel: 'silent',
    build: { write: false, rollupOptions: { input: consumerPath(entry) } },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output : [],
  );
  const scripts = chunks.filter((chunk) => chunk.type === 'chunk');
  if (scripts.length !== 1 || scripts[0]?.type !== 'chunk') {
    throw new Error(`vite build gave ${scripts.length} scripts, not one`);
  }
  return bundled(scripts[0].code);
}

/**
 * Rollup with node-resolve for the browser, the plugin a browser app needs to take packages from
 * node_modules, then minified with terser (what @rollup/plugin-terser runs; its types do not load
 * under TypeScript's nodenext).
 */
async function withRollup(entry: string): Promise<BundledApp> {
  const warnings: string[] = [];
  const bundle = await rollup({
    input: consumerPath(entry),
    plugins: [nodeResolve({ browser: true })],
    // Warnings that the app would break, or about agentchat's own files, are kept. zod draws
    // others (circular imports, annotations Rollup cannot use) that every user of zod sees.
    onwarn: (warning) => {
      const ours = [warning.id, ...(warning.ids ?? [])].some((id) => id?.includes('/agentchat/'));
      if (ours || warning.code === 'UNRESOLVED_IMPORT' || warning.code === 'MISSING_EXPORT') {
        warnings.push(warning.message);
      }
    },
  });
  try {
    const { output } = await bundle.generate({ format: 'es' });
    const { code = '' } = await minify(output[0].code, { module: true });
    return bundled(code, warnings);
  } finally {
    await bundle.close();
  }
}

/** Each way an app can take the package in a bundler, by the name the tests report. */
export const bundlers = {
  'esbuild (import)': () => withEsbuild('bundler-app.mjs'),
  'webpack 5 (import)': () => withWebpack('bundler-app.mjs'),
  'webpack 5 (require)': () => withWebpack('bundler-app.cjs'),
  'Vite (import)': () => withVite('bundler-app.mjs'),
  'Rollup (import)': () => withRollup('bundler-app.mjs'),
} satisfies Record<string, () => Promise<BundledApp>>;
