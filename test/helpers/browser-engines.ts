/**
 * The browser engines the browser suite runs in besides Chromium, from Debian's packages:
 * Firefox ESR driven over WebDriver BiDi by puppeteer-core (no geckodriver, which a tool cannot
 * download here), and WebKitGTK's MiniBrowser driven by WebKitWebDriver under Xvfb, through
 * vitest's own WebdriverIO provider. `.ci/run` installs the packages when a machine lacks them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineBrowserProvider } from '@vitest/browser';
import {
  WebdriverBrowserProvider,
  type WebdriverProviderOptions,
} from '@vitest/browser-webdriverio';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { BrowserProvider, TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** Vitest's own command that sizes the test iframe; each provider implements it. */
    __vitest_viewport(size: { width: number; height: number }): Promise<void>;
  }
}

/**
 * How long a browser may take to start before the run fails, in every engine. Each start is
 * bounded: a WebKit session without a display never answers, and an unbounded wait would hang
 * the whole suite. A cold start on a loaded machine measured 2 to 6 s.
 */
export const browserStartTimeout = 60_000;

/** Rejects with a message naming `what` if `promise` has not settled within `ms`. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Debian's Firefox ESR, headless, driven over WebDriver BiDi, with `prefs` set (such as the
 * colour scheme pages see).
 */
export function launchFirefox(prefs: Record<string, unknown> = {}): Promise<Browser> {
  return within(
    browserStartTimeout,
    `Starting ${firefoxPath}`,
    puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: firefoxPath,
      headless: true,
      timeout: browserStartTimeout,
      extraPrefsFirefox: prefs,
    }),
  );
}

/** Firefox over WebDriver BiDi, one page per test session, as vitest's own providers do. */
class FirefoxProvider implements BrowserProvider {
  readonly name = 'firefox-bidi';
  readonly supportsParallelism = false;
  #browser: Promise<Browser> | undefined;
  readonly #pages = new Map<string, Page>();

  constructor(project: TestProject) {
    // Vitest sizes the test iframe's viewport through this command before every file.
    project.browser?.registerCommand('__vitest_viewport', async (context, size) => {
      await this.#pages
        .get(context.sessionId)
        ?.setViewport(size)
        .catch((error: unknown) => {
          // puppeteer sets the viewport and the screen orientation together; Firefox ESR 140
          // knows the first BiDi command and not the second, which a viewport does not need.
          if (!String(error).includes('unknown command emulation.setScreenOrientationOverride')) {
            throw error;
          }
        });
    });
  }

  getCommandsContext(sessionId: string) {
    return { page: this.#pages.get(sessionId) };
  }

  async openPage(sessionId: string, url: string): Promise<void> {
    this.#browser ??= launchFirefox();
    const browser = await this.#browser;
    const page = this.#pages.get(sessionId) ?? (await browser.newPage());
    this.#pages.set(sessionId, page);
    await page.goto(url);
  }

  async close(): Promise<void> {
    const browser = this.#browser;
    this.#browser = undefined;
    this.#pages.clear();
    await (await browser?.catch(() => undefined))?.close();
  }
}

export const firefox = () =>
  defineBrowserProvider({
    name: 'firefox-bidi',
    supportedBrowser: ['firefox'],
    providerFactory: (project) => new FirefoxProvider(project),
  });

export const miniBrowserPath =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/**
 * Waits until the driver answers on `port`. Polls only while the driver runs, so that a driver
 * stopped after a failed start leaves nothing running behind it.
 */
export async function listening(
  port: number,
  driver: ChildProcess,
  output: () => string,
): Promise<void> {
  let failedToStart: Error | undefined;
  driver.once('error', (error) => {
    failedToStart = error;
  });
  while (!failedToStart && driver.exitCode === null && driver.signalCode === null) {
    const response = await fetch(`http://127.0.0.1:${port}/status`).catch(() => undefined);
    if (response?.ok) return;
    await sleep(100);
  }
  throw new Error(
    `WebKitWebDriver stopped (${failedToStart ?? driver.exitCode ?? driver.signalCode}) before listening:\n${output()}`,
  );
}

/**
 * vitest's WebdriverIO provider for WebKitGTK, which starts WebKitWebDriver under `xvfb-run`
 * first: the MiniBrowser has no headless mode and needs a display. The project names its
 * browser `MiniBrowser`, the name WebKitWebDriver matches the session's `browserName` against.
 */
class WebKitProvider extends WebdriverBrowserProvider {
  #driver: ChildProcess | undefined;
  /** The options vitest's provider reads when it opens the session: the driver's port goes in. */
  readonly #options: WebdriverProviderOptions;

  constructor(project: TestProject, options: WebdriverProviderOptions) {
    super(project, options);
    this.#options = options;
  }

  override async openBrowser() {
    if (this.browser) return this.browser;
    const port = await freePort();
    let output = '';
    // Its own process group, so closing stops Xvfb and the driver as well as xvfb-run.
    const driver = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`], {
      detached: true,
    });
    this.#driver = driver;
    const collect = (chunk: Buffer) => {
      output += chunk;
    };
    driver.stdout?.on('data', collect);
    driver.stderr?.on('data', collect);
    Object.assign(this.#options, { hostname: '127.0.0.1', port });
    return within(
      browserStartTimeout,
      `Starting WebKitWebDriver and ${miniBrowserPath} under xvfb-run`,
      listening(port, driver, () => output).then(() => super.openBrowser()),
    );
  }

  override async close() {
    try {
      await super.close();
    } finally {
      const driver = this.#driver;
      this.#driver = undefined;
      if (driver?.pid !== undefined && driver.exitCode === null && driver.signalCode === null) {
        process.kill(-driver.pid, 'SIGTERM');
        await once(driver, 'exit');
      }
    }
  }
}

export const webkit = () =>
  defineBrowserProvider({
    name: 'webdriverio',
    supportedBrowser: ['MiniBrowser'],
    // vitest's WebdriverIO provider is typed against vitest 5.0's BrowserProvider, whose
    // CDPSession type differs from 5.1's in a method this suite never calls.
    providerFactory: (project) =>
      new WebKitProvider(project, {
        logLevel: 'warn',
        // A request to the driver that gets no answer fails instead of hanging the run.
        connectionRetryTimeout: browserStartTimeout,
        connectionRetryCount: 0,
        capabilities: {
          'wdio:enforceWebDriverClassic': true,
          // WebKitGTK's own capability, which WebdriverIO's types do not list.
          ...{ 'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] } },
        },
      }) as unknown as BrowserProvider,
  });
