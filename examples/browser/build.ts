/**
 * Bundles the page's code with esbuild, as a site's build step would:
 *
 *   npx tsx examples/browser/build.ts     # writes examples/browser/dist/app.js
 *
 * `agentchat` resolves like any dependency (here through the repo's tsconfig `paths`); esbuild
 * picks its ESM build, and `sideEffects: false` lets it drop whatever the page does not use.
 */
import { fileURLToPath } from 'node:url';
import { type BuildResult, build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Bundles app.ts for evergreen browsers; `write: false` keeps the output in memory. */
export function buildApp(
  options: { write?: boolean } = {},
): Promise<BuildResult<{ metafile: true; write: boolean }>> {
  return build({
    entryPoints: [`${here}app.ts`],
    outdir: `${here}dist`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    metafile: true,
    write: options.write ?? true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await buildApp();
  for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
    console.log(`${file}  ${(bytes / 1024).toFixed(1)} KB`);
  }
}
