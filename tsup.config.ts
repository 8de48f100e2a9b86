import { defineConfig } from 'tsup';

const entry = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' };

export default defineConfig([
  {
    // ESM: dependencies stay external so an app that also uses zod ships one copy.
    entry,
    format: ['esm'],
    target: 'es2022',
    platform: 'neutral',
    dts: true,
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
    dts: true,
    sourcemap: true,
    treeshake: true,
  },
]);
