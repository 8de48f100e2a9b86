import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { httpMockCommands } from './test/helpers/http-mock-commands.js';
import { contractProblems, type Exchange } from './test/helpers/openapi-contract.js';

/**
 * Debian's Chromium: a browser download of the tool's own cannot run on machines without
 * general network access. The flags keep Chromium from dialling out at start-up. Also used by
 * test/package/browser-app.test.ts, which drives Chromium with Playwright directly.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  test: {
    projects: [
      // examples/testing: a user's own test suite that mocks the service with agentchat/testing.
      'examples/testing/vitest.config.ts',
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          // test/package has its own suite (npm run test:package): it builds and installs the tarball.
          exclude: ['test/browser/**', 'test/package/**'],
          typecheck: {
            enabled: true,
            include: ['test/**/*.test-d.ts'],
            tsconfig: './tsconfig.json',
          },
        },
      },
      {
        // The mock service again, on msw 2 (installed as `msw2`): agentchat/testing supports msw 2
        // and 3, and each major must pass the same suite. Every import of msw, the mock's own and
        // the tests', resolves to msw 2 here.
        resolve: { alias: [{ find: /^msw(\/.*)?$/, replacement: 'msw2$1' }] },
        test: {
          name: 'mock on msw 2',
          environment: 'node',
          include: ['test/mock/**/*.test.ts'],
          // These build or spawn their own programs, choosing the msw major themselves.
          exclude: [
            'test/mock/node-version.test.ts',
            'test/mock/bundle.test.ts',
            'test/mock/cli.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions }),
            instances: [{ browser: 'chromium' }],
            // The mock's answers in the page are checked against docs/openapi.yaml here in
            // Node, where the document and its validator can be read.
            commands: {
              contractProblems: (_context, exchanges: Exchange[]) => contractProblems(exchanges),
              ...httpMockCommands,
            },
          },
        },
      },
    ],
  },
});
