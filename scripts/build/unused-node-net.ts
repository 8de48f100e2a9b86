/**
 * An esbuild plugin for the builds of agentchat/testing and the agentchat-mock bin (tsup.config.ts),
 * and for the test that bundles agentchat/testing for a browser (test/mock/bundle.test.ts).
 *
 * `@remix-run/node-fetch-server`, the bridge between Node's HTTP server and the mock's fetch
 * handlers, imports `node:net` at its top for one function the mock never calls (`isIP`, for the
 * client address `createRequestListener` gives; the mock uses `createRequest` and
 * `sendResponse`). Bundled as it is, the import stays in the output though nothing uses it, and
 * every browser bundle of agentchat/testing then fails to resolve `net` (esbuild and webpack
 * refuse it), although the bridge only ever loads in Node. Here it resolves to a stand-in,
 * node-net-stand-in.ts, which tree shaking then drops.
 *
 * tsup resolves `node:` imports with a plugin of its own that runs first: a build using this one
 * sets `removeNodeProtocol: false` and keeps its other `node:` imports external itself.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const standIn = fileURLToPath(new URL('./node-net-stand-in.ts', import.meta.url));

export const unusedNodeNet: Plugin = {
  name: 'unused-node-net',
  setup(build) {
    build.onResolve({ filter: /^(node:)?net$/ }, ({ importer }) =>
      /[\\/]@remix-run[\\/]node-fetch-server[\\/]/.test(importer) ? { path: standIn } : undefined,
    );
  },
};
