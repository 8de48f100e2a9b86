import { defineConfig } from 'tsup';

const entry = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' };

// Leave `@internal` declarations (the transport the resource classes are built with) out of the
// published types, so a user's compiler sees only the public surface and never loads zod's types.
const dts = { entry, compilerOptions: { stripInternal: true } };

export default defineConfig([
  {
    // ESM: dependencies stay external so an app that also uses zod ships one copy. The
    // agentchat-mock bin is built here too (run by Node from its path, so no types), so that it
    // shares the mock's code with agentchat/testing through a chunk rather than ship a copy.
    entry: { ...entry, 'bin/agentchat-mock': 'src/testing/node/bin.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    dts,
    sourcemap: true,
    clean: true,
    treeshake: true,
  },
  {
    // CJS: zod ships CJS too, so it stays external here as well.
    entry,
    format: ['cjs'],
    target: 'es2022',
    platform: 'node',
    dts,
    sourcemap: true,
    treeshake: true,
  },
]);
