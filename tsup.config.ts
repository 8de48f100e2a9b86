import { defineConfig } from 'tsup';

const entry = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' };

// Leave `@internal` declarations (the transport the resource classes are built with) out of the
// published types, so a user's compiler sees only the public surface and never loads zod's types.
const dts = { compilerOptions: { stripInternal: true } };

export default defineConfig([
  {
    // ESM: dependencies stay external so an app that also uses zod ships one copy.
    entry,
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    dts,
    sourcemap: true,
    clean: true,
    treeshake: true,
  },
  {
    // CJS: ky is ESM only, and `require('ky')` fails at run time on the Node versions the package
    // supports, so ky is bundled in. zod ships CJS too, so it stays external.
    entry,
    format: ['cjs'],
    noExternal: ['ky'],
    target: 'es2022',
    platform: 'node',
    dts,
    sourcemap: true,
    treeshake: true,
  },
  {
    // The agentchat-mock bin: run by Node from its path, so ESM only and no types.
    entry: { 'bin/agentchat-mock': 'src/testing/node/bin.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'node',
    sourcemap: true,
    treeshake: true,
  },
]);
