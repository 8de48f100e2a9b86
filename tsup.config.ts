import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'mcp/index': 'src/mcp/index.ts',
};

// Leave `@internal` declarations (the transport the resource classes are built with) out of the
// published types, so a user's compiler sees only the public surface and never loads zod's types.
const dts = { compilerOptions: { stripInternal: true } };

export default defineConfig([
  {
    // ESM: dependencies stay external so an app that also uses zod ships one copy. The
    // `agentchat-mcp` bin is built here only: it shares the client's chunks and has no types.
    entry: { ...entry, 'mcp/bin': 'src/mcp/bin.ts' },
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    dts: { ...dts, entry },
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
