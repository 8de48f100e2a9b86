/**
 * The views' script and style. The package's build replaces this module with one that loads them
 * from dist/mcp/apps/views.cjs (`#mcp-views`), built at `npm run build` (tsup.config.ts,
 * `builtViewAssets`): a
 * CommonJS module, which the ESM and CJS builds, Node.js and bundlers alike load, shipped once
 * and loaded only when a host first reads a view. Run from source (tests, `tsx src/mcp/bin.ts`),
 * the same build step makes them on first use, with esbuild, a development dependency.
 */
import type { ViewAssets } from './html.js';

export async function loadViewAssets(): Promise<ViewAssets> {
  const { buildViewAssets } = await import('./build-views.js');
  return (await buildViewAssets()).assets;
}
