import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Browser, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { runAppPage, type ServedApps, serveApps, startMockForApps } from '../helpers/app-page.js';
import { type BundledApp, bundlers } from '../helpers/bundlers.js';
import { consumerPath, type MockBin, sizeBudget } from '../helpers/package-consumer.js';

const run = promisify(execFile);

type BundlerName = keyof typeof bundlers;
const names = Object.keys(bundlers) as BundlerName[];

let browser: Browser;
let mock: MockBin;
let apps: ServedApps;
const built = {} as Record<BundlerName, BundledApp>;

/** The page of each bundler is served under a path of its own: `/<index>/`. */
const pathOf = (name: BundlerName) => `/${names.indexOf(name)}/`;

beforeAll(async () => {
  browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
  // One bundler at a time: each is CPU-bound, and the machine has few cores.
  for (const name of names) built[name] = await bundlers[name]();
  apps = await serveApps(Object.fromEntries(names.map((name, index) => [index, built[name].code])));
  mock = await startMockForApps(apps.origin);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await mock?.stop();
  await apps?.close();
});

describe('a browser app built from the tarball by each bundler', () => {
  it.each(names)('%s: stays inside the size budget, without a warning', (name) => {
    const { gzip, code, warnings } = built[name];
    console.log(
      `[size] ${name}: ${(gzip / 1024).toFixed(2)} KiB min+gzip ` +
        `(${(code.length / 1024).toFixed(1)} KiB minified), budget ${sizeBudget / 1024} KiB`,
    );
    expect(gzip).toBeLessThanOrEqual(sizeBudget);
    expect(warnings).toEqual([]);
    // Browsers get the stubs whichever build the bundler takes (webpack's `require` takes the
    // CJS one): no Node module name, no channel code, no certificate problems' wording.
    expect(code).not.toContain('diagnostics_channel');
    expect(code).not.toContain('networks.md');
  });

  it.each(names)('%s: runs in Chromium against `agentchat-mock`', async (name) => {
    const url = `${apps.origin}${pathOf(name)}?baseUrl=${encodeURIComponent(mock.baseUrl)}`;

    const { result } = await runAppPage(browser, url, mock.baseUrl);

    expect(result).toEqual({
      name: 'Bundled',
      reply: 'Hello! agent_web here. How can I help with your project today?',
      missing: { isNotFoundError: true, status: 404 },
    });
  });
});

describe('`require` outside a browser bundler', () => {
  it('still gets the CommonJS build in Node', async () => {
    // The `browser` condition is for bundlers; Node never sets it.
    const { stdout } = await run(
      'node',
      ['-p', "require.resolve('agentchat') + ' ' + typeof require('agentchat').Client"],
      { cwd: consumerPath() },
    );
    expect(stdout.trim()).toBe(`${consumerPath('node_modules/agentchat/dist/index.cjs')} function`);
  });
});
