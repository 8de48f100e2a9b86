import { playwright } from '@vitest/browser-playwright';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import type { BrowserProviderOption } from 'vitest/node';
import { browserStartTimeout, firefox, webkit } from './test/helpers/browser-engines.js';
import { httpMockCommands } from './test/helpers/http-mock-commands.js';
import { contractProblems, type Exchange } from './test/helpers/openapi-contract.js';

/**
 * Debian's Chromium: a browser download of the tool's own cannot run on machines without
 * general network access. The flags keep Chromium from dialling out at start-up. Also used by
 * test/package/browser-app.test.ts and bundlers.test.ts, which drive Chromium with Playwright
 * directly.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  timeout: browserStartTimeout,
  args: [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** A project that runs test/browser/ in one browser engine. */
function browserProject(
  name: string,
  provider: BrowserProviderOption,
  browser: string,
  { headless = true, screenshotFailures = true } = {},
): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      include: ['test/browser/**/*.test.ts'],
      browser: {
        enabled: true,
        headless,
        screenshotFailures,
        provider,
        // vitest types the names its own providers know; WebKitGTK's is `MiniBrowser`.
        instances: [{ browser: browser as 'chromium' }],
        // The mock's answers in the page are checked against docs/openapi.yaml here in
        // Node, where the document and its validator can be read.
        commands: {
          contractProblems: (_context, exchanges: Exchange[]) => contractProblems(exchanges),
          ...httpMockCommands,
        },
      },
    },
  };
}

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
      // The browser suite, whatever test/browser/ holds, in each engine: Chromium, Firefox
      // and WebKit (Safari's). See test/helpers/browser-engines.ts for the two latter.
      browserProject('browser', playwright({ launchOptions: chromiumLaunchOptions }), 'chromium'),
      // The Firefox provider takes no screenshots: a failure is reported without one.
      browserProject('browser (firefox)', firefox(), 'firefox', { screenshotFailures: false }),
      // No headless mode: the MiniBrowser runs on the display xvfb-run gives it.
      browserProject('browser (webkit)', webkit(), 'MiniBrowser', { headless: false }),
    ],
  },
});
