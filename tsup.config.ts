import { defineConfig } from 'tsup';

const entry = { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' };

export default defineConfig([
  {
    // ESM: dependencies stay external so an app that also uses ky or zod ships one copy.
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
    // CJS: ky is ESM only, so `require('ky')` would fail at run time; bundle it in.
    entry,
    format: ['cjs'],
    target: 'es2022',
    platform: 'node',
    dts: true,
    sourcemap: true,
    noExternal: ['ky'],
    treeshake: true,
  },
]);
