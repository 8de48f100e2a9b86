/**
 * One page of a server's own, opened in each of the three browser engines as a person would meet
 * it, at a width and in a colour scheme: Debian's Chromium through playwright, Firefox ESR over
 * WebDriver BiDi through puppeteer-core, WebKitGTK's MiniBrowser through WebKitWebDriver under
 * xvfb-run (WebDriver classic, through webdriverio). Each engine is told the colour scheme its
 * own way: playwright emulates it, Firefox reads a preference, WebKitGTK follows the GTK theme.
 * Scripts run through the driver, outside the page's Content-Security-Policy, so a page that
 * allows no script can still be checked (axe-core) and read.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Page as PuppeteerPage } from 'puppeteer-core';
import { remote } from 'webdriverio';
import {
  browserStartTimeout,
  launchFirefox,
  listening,
  miniBrowserPath,
  within,
} from './browser-engines.js';
import { freePort } from './free-port.js';
import { launchChromium } from './sign-in-host.js';

export const engines = ['chromium', 'firefox', 'webkit'] as const;
export type Engine = (typeof engines)[number];
export type ColorScheme = 'light' | 'dark';

/** How the page is seen: the viewport's CSS size and the person's colour scheme. */
export interface View {
  readonly width: number;
  readonly height: number;
  readonly colorScheme: ColorScheme;
}

/** A key the person presses. */
export type Key = 'Tab' | 'Enter' | 'Space';

/** A browser of one engine in one colour scheme, and the page it shows. */
export interface EnginePage {
  readonly engine: Engine;
  goto(url: string): Promise<void>;
  /** The page's URL now. */
  url(): Promise<string>;
  /**
   * Makes the viewport `width` CSS pixels wide, its height kept. Pages are seen narrow first:
   * WebKitGTK shoots black what a window made smaller has not painted again.
   */
  setWidth(width: number): Promise<void>;
  /** The value of `expression` (a promise is awaited), evaluated in the page. */
  evaluate<T>(expression: string): Promise<T>;
  /** Runs `script` (statements, such as a library's source) in the page. */
  inject(script: string): Promise<void>;
  /** Presses `key` as a keyboard does, then resolves once the page has it. */
  press(key: Key): Promise<void>;
  /** A PNG of the whole page, at the viewport's width. */
  screenshot(): Promise<Buffer>;
  /**
   * WebKit only: `evaluate`, `inject` and `press` act in the page's first frame from now on, or
   * in the page again (`null`). WebKitGTK's window is never narrower than 447 px, so a 320 px
   * view there is a frame's.
   */
  frame?(index: 0 | null): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `engine` showing pages in `colorScheme`, its viewport `width` × `height`.
 *
 * @example
 * ```ts
 * const page = await openEnginePage('firefox', { width: 320, height: 900, colorScheme: 'dark' });
 * await page.goto(url);
 * const png = await page.screenshot();
 * ```
 */
export function openEnginePage(engine: Engine, view: View): Promise<EnginePage> {
  if (engine === 'chromium') return openChromium(view);
  if (engine === 'firefox') return openFirefox(view);
  return openWebKit(view);
}

async function openChromium(view: View): Promise<EnginePage> {
  const browser = await launchChromium();
  const context = await browser.newContext({
    viewport: { width: view.width, height: view.height },
    colorScheme: view.colorScheme,
  });
  const page = await context.newPage();
  const keys: Record<Key, string> = { Tab: 'Tab', Enter: 'Enter', Space: ' ' };
  return {
    engine: 'chromium',
    goto: async (url) => void (await page.goto(url)),
    url: async () => page.url(),
    setWidth: (width) => page.setViewportSize({ width, height: view.height }),
    evaluate: (expression) => page.evaluate(expression),
    inject: async (script) => void (await page.evaluate(script)),
    press: (key) => page.keyboard.press(keys[key]),
    screenshot: async () => {
      try {
        return await page.screenshot({ fullPage: true });
      } catch (error) {
        // Seen once on a loaded machine, right after a page loaded: Chromium had no frame yet.
        // The next frame is the event to wait for, then one more try.
        if (!String(error).includes('Unable to capture screenshot')) throw error;
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
        return page.screenshot({ fullPage: true });
      }
    },
    close: () => browser.close(),
  };
}

async function openFirefox(view: View): Promise<EnginePage> {
  const browser = await launchFirefox({
    // 0 is dark, 1 light: what a page's prefers-color-scheme reads.
    'layout.css.prefers-color-scheme.content-override': view.colorScheme === 'dark' ? 0 : 1,
  });
  const page = await browser.newPage();
  const resize = (width: number, height: number) => setFirefoxViewport(page, width, height);
  await resize(view.width, view.height);
  const keys: Record<Key, 'Tab' | 'Enter' | ' '> = { Tab: 'Tab', Enter: 'Enter', Space: ' ' };
  return {
    engine: 'firefox',
    goto: async (url) => void (await page.goto(url)),
    url: async () => page.url(),
    setWidth: (width) => resize(width, view.height),
    evaluate: (expression) => page.evaluate(expression) as Promise<never>,
    inject: async (script) => void (await page.evaluate(script)),
    press: (key) => page.keyboard.press(keys[key]),
    screenshot: async () => Buffer.from(await page.screenshot({ fullPage: true })),
    close: () => browser.close(),
  };
}

/** puppeteer sets the viewport and the screen orientation; Firefox ESR knows only the first. */
async function setFirefoxViewport(page: PuppeteerPage, width: number, height: number) {
  await page.setViewport({ width, height }).catch((error: unknown) => {
    if (!String(error).includes('unknown command emulation.setScreenOrientationOverride')) {
      throw error;
    }
  });
}

async function openWebKit(view: View): Promise<EnginePage> {
  const port = await freePort();
  let output = '';
  // Its own process group, so closing stops Xvfb and the driver as well as xvfb-run.
  // A screen taller than any page shot whole (xvfb-run's default is 1280 × 1024).
  const screen = ['-s', '-screen 0 1920x3000x24'];
  const driver: ChildProcess = spawn(
    'xvfb-run',
    ['-a', ...screen, 'WebKitWebDriver', `--port=${port}`],
    {
      detached: true,
    },
  );
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  driver.stdout?.on('data', collect);
  driver.stderr?.on('data', collect);
  const stop = async () => {
    if (driver.pid !== undefined && driver.exitCode === null && driver.signalCode === null) {
      process.kill(-driver.pid, 'SIGTERM');
      await once(driver, 'exit');
    }
  };
  try {
    const browser = await within(
      browserStartTimeout,
      `Starting WebKitWebDriver and ${miniBrowserPath} under xvfb-run`,
      listening(port, driver, () => output).then(() =>
        remote({
          hostname: '127.0.0.1',
          port,
          logLevel: 'warn',
          connectionRetryTimeout: browserStartTimeout,
          connectionRetryCount: 0,
          capabilities: {
            browserName: 'MiniBrowser',
            'wdio:enforceWebDriverClassic': true,
            // WebKitGTK's own capability, which WebdriverIO's types do not list.
            ...{
              'webkitgtk:browserOptions': {
                binary: miniBrowserPath,
                args: ['--automation', ...(view.colorScheme === 'dark' ? ['--dark-mode'] : [])],
              },
            },
          },
        }),
      ),
    );
    // WebDriver sizes the window; the viewport is that less what the window adds around it.
    const [addedWidth = 0, addedHeight = 0] = await browser.execute(() => [
      window.outerWidth - window.innerWidth,
      window.outerHeight - window.innerHeight,
    ]);
    /** Grows the viewport to `width` × `height` (WebKitGTK's narrowest is wider than 320). */
    const resize = async (width: number, height: number) => {
      await browser.setWindowSize(width + addedWidth, height + addedHeight);
      // The window is resized after WebDriver answers: the page says when, by its resize event.
      await browser.executeAsync(
        (wantedWidth: number, wantedHeight: number, done: () => void) => {
          const check = () => {
            if (window.innerWidth < wantedWidth || window.innerHeight < wantedHeight) return;
            window.removeEventListener('resize', check);
            done();
          };
          window.addEventListener('resize', check);
          check();
        },
        width,
        height,
      );
    };
    await resize(view.width, view.height);
    const keys: Record<Key, string> = { Tab: '\uE004', Enter: '\uE007', Space: '\uE00D' };
    return {
      engine: 'webkit',
      goto: (url) => browser.url(url) as Promise<never>,
      url: () => browser.getUrl(),
      setWidth: async (width) => resize(width, await browser.execute(() => window.innerHeight)),
      evaluate: (expression) =>
        browser.execute(`return (async () => (${expression}))()`) as Promise<never>,
      inject: async (script) => void (await browser.execute(script)),
      press: (key) => browser.keys(keys[key]),
      // WebDriver classic shoots what the window shows: a page taller than the window is shot
      // after the window grows to it. The window never shrinks: WebKitGTK shoots black what a
      // window made smaller has not painted again, and so is its shot of an element shorter than
      // the window.
      screenshot: async () => {
        const [width, height, pageHeight] = await browser.execute(() => [
          window.innerWidth,
          window.innerHeight,
          document.documentElement.scrollHeight,
        ]);
        if ((pageHeight ?? 0) > (height ?? 0)) await resize(width ?? view.width, pageHeight ?? 0);
        // Painted at its size once two frames have passed.
        await browser.executeAsync((done: () => void) =>
          requestAnimationFrame(() => requestAnimationFrame(() => done())),
        );
        return Buffer.from(await browser.takeScreenshot(), 'base64');
      },
      frame: (index) => browser.switchToFrame(index),
      close: async () => {
        try {
          await browser.deleteSession();
        } finally {
          await stop();
        }
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
