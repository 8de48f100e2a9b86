import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SOAK_VARIABLE } from '../helpers/soak.js';

/**
 * The soak suite (`npm run test:soak`): proofs that need minutes by nature (floods of tens of
 * thousands of requests read against a server process's memory). `npm test` keeps a shorter proof
 * of each claim made here; CONTRIBUTING.md says which. `.ci/run` runs both.
 *
 * Besides test/soak, it runs `npm test`'s memory proofs again at a soak's length (the files below
 * read it through test/helpers/soak.ts): the same code, so the two proofs cannot drift apart.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'soak',
    environment: 'node',
    include: [
      'test/soak/**/*.test.ts',
      'test/reliability/sign-in-front-floods.test.ts',
      'test/reliability/hostile-clients.test.ts',
    ],
    env: { [SOAK_VARIABLE]: '1' },
    // A soak's timeout catches a hang, not slowness: ten times its time on a quiet machine.
    testTimeout: 900_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 10_000 } },
  },
});
