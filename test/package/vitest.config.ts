import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The packaging suite (`npm run test:package`): builds and packs the package, installs the
 * tarball into a scratch project and proves it there, in every runtime of
 * scripts/runtimes/matrix.ts, in TypeScript's module settings and in a real browser.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'package',
    environment: 'node',
    include: ['test/package/**/*.test.ts'],
    globalSetup: ['test/package/global-setup.ts'],
    // Each test starts whole runtimes, compilers or a browser; on 2 busy cores that takes seconds.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
