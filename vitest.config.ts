import { availableParallelism } from 'node:os';
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

/**
 * What every project shares: limits that catch a hang without failing a test on a loaded machine
 * (scripts/under-load.ts proves it: CONTRIBUTING.md). A test is given 30 s rather than vitest's 5 s:
 * a property test's hundred runs, or a hundred concurrent calls, take 1 s on an idle machine and
 * several on a busy one. `expect.poll` waits up to 10 s rather than 1 s for an event (a request
 * reaching a server, a process starting). A test or poll that succeeds returns at once, so the
 * margins cost nothing.
 */
const shared = {
  // Each test file in a fresh worker, as vitest does by default (and its hint after each run is
  // turned off below). Sharing workers saves about 0.3 s of start-up per file, but
  // modules loaded once per worker (ky among them) would then keep whatever a file before had
  // installed when they were first imported, fake timers included, and hang a later file.
  isolate: true,
  testTimeout: 30_000,
  // Hooks start servers, processes and browsers, several at once on a busy machine.
  hookTimeout: 60_000,
  expect: { poll: { timeout: 10_000 } },
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
      ...shared,
      name,
      include: ['test/browser/**/*.test.ts'],
      browser: {
        enabled: true,
        headless,
        // Never vitest's UI in the page. vitest turns it on for a headed browser (the WebKit
        // project's) unless CI is set, so a developer's `npm test` loaded the UI app in the
        // MiniBrowser and ran its API server, which a run under CI=true did not.
        ui: false,
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
    // vitest suggests `isolate: false` after every run whose projects leave isolation unstated
    // (examples/testing, a user's suite, does); `shared` above says why isolation stays.
    experimental: { diagnostics: { isolate: false } },
    // Most test time is spent waiting (on child processes, sockets, browsers), so more files run
    // at once than there are cores; vitest's default is one worker fewer than the cores.
    maxWorkers: Math.max(4, availableParallelism() * 2),
    projects: [
      // examples/testing: a user's own test suite that mocks the service with agentchat/testing.
      'examples/testing/vitest.config.ts',
      {
        test: {
          ...shared,
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          // test/package has its own suite (npm run test:package): it builds and installs the tarball.
          // The type tests (test/**/*.test-d.ts) are not run here: `npm run typecheck` compiles
          // them with the rest of tsconfig.json, where a failed expectTypeOf is a compile error.
          // test/soak holds the minutes-long proofs (npm run test:soak), each with a shorter
          // twin here.
          exclude: ['test/browser/**', 'test/package/**', 'test/soak/**'],
          // The tarball and the TypeDoc site, made once before the files that read them start.
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        // The mock service again, on msw 2 (installed as `msw2`): agentchat/testing supports msw 2
        // and 3, and each major must pass the same suite. Every import of msw, the mock's own and
        // the tests', resolves to msw 2 here.
        resolve: { alias: [{ find: /^msw(\/.*)?$/, replacement: 'msw2$1' }] },
        test: {
          ...shared,
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
