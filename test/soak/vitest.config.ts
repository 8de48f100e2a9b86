import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The soak suite (`npm run test:soak`): proofs that need minutes by nature (floods of tens of
 * thousands of requests read against a server process's memory). `npm test` keeps a shorter proof
 * of each claim made here; CONTRIBUTING.md says which. `.ci/run` runs both.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'soak',
    environment: 'node',
    include: ['test/soak/**/*.test.ts'],
    // A soak's timeout catches a hang, not slowness: ten times its time on a quiet machine.
    testTimeout: 900_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 10_000 } },
  },
});
