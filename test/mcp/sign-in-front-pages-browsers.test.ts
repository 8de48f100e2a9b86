/**
 * The sign-in front's consent and error pages in Chromium, Firefox and WebKit, light and dark,
 * narrow and wide, as the real front serves them: each shot whole (kept in .tmp/front-pages/ to
 * look at), no page wider than its viewport, no WCAG 2.2 A or AA violation by axe-core (colour
 * contrast included) in either scheme, and Allow and Deny reached and pressed with the keyboard
 * alone. WebKitGTK's MiniBrowser window is never narrower than 447 px: there the narrow view is
 * the narrowest it has.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ColorScheme,
  type EnginePage,
  engines,
  openEnginePage,
} from '../helpers/page-engines.js';
import { type SignInFront, startSignInFront } from '../helpers/sign-in-front.js';
import {
  authorizationUrl,
  registerPublicClient,
  startRedirectTarget,
} from '../helpers/sign-in-host.js';

const shots = join(import.meta.dirname, '../../.tmp/front-pages');
const axeSource = await readFile(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
/** What axe-core checks: every WCAG 2.0, 2.1 and 2.2 success criterion of levels A and AA. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

let front: SignInFront;
let redirect: { url: string; server: Server };

beforeAll(async () => {
  [front, redirect] = await Promise.all([
    startSignInFront('sk_front_pages_engines_2c4d'),
    startRedirectTarget(),
  ]);
  await mkdir(shots, { recursive: true });
}, 60_000);
afterAll(async () => {
  redirect?.server.close();
  await front?.close();
});

/** A new consent page's URL: a host registered afresh, asking for every scope it may. */
async function consentUrl(): Promise<string> {
  const { clientId } = await registerPublicClient(front.origin, redirect.url, 'Claude');
  const url = authorizationUrl(front.origin, clientId, redirect.url);
  url.searchParams.set('scope', 'agentchat:read agentchat:write offline_access');
  url.searchParams.set('prompt', 'consent');
  return url.href;
}

/** An error page's URL: a client the front does not know. */
function errorUrl(): string {
  return authorizationUrl(front.origin, 'no-such-client', redirect.url).href;
}

/** The width of a PNG, from its header. */
function pngWidth(png: Buffer): number {
  return png.readUInt32BE(16);
}

/**
 * What axe-core finds in the page against WCAG A and AA: each violated rule with the elements
 * it found, and the rules that passed (colour contrast among them, where the engine lets axe
 * read the colours).
 */
async function accessibility(
  page: EnginePage,
): Promise<{ violations: string[]; passes: string[] }> {
  if (!(await page.evaluate<boolean>('typeof axe === "object"'))) await page.inject(axeSource);
  return page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_AA)} } }).then((results) => ({
      violations: results.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')),
      passes: results.passes.map((p) => p.id),
    }))`,
  );
}

/** What has the keyboard focus: its tag and text. */
function focused(page: EnginePage): Promise<string> {
  return page.evaluate<string>(
    '(document.activeElement?.localName ?? "") + " " + (document.activeElement?.textContent ?? "")',
  );
}

describe.each(engines)('in %s', { timeout: 180_000 }, (engine) => {
  it.each(['light', 'dark'] as const)(
    '%s: each page shot at 320 and 1280 px, no wider than the view, no WCAG AA violation',
    async (colorScheme: ColorScheme) => {
      const page = await openEnginePage(engine, { width: 320, height: 640, colorScheme });
      try {
        // Narrow first, then wide: see setWidth.
        for (const width of [320, 1280]) {
          await page.setWidth(width);
          for (const [name, url] of [
            ['consent', await consentUrl()],
            ['error', errorUrl()],
          ] as const) {
            await page.goto(url);
            expect(
              await page.evaluate<boolean>('matchMedia("(prefers-color-scheme: dark)").matches'),
            ).toBe(colorScheme === 'dark');
            // The page follows the scheme: light text on dark, or dark on light.
            const [background, text] = await page.evaluate<[number, number]>(
              `[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]
              .map((color) => color.match(/\\d+/g).slice(0, 3).reduce((sum, part) => sum + Number(part), 0))`,
            );
            if (colorScheme === 'dark') expect(background).toBeLessThan(text);
            else expect(background).toBeGreaterThan(text);
            const [viewport, content] = await page.evaluate<[number, number]>(
              '[document.documentElement.clientWidth, document.documentElement.scrollWidth]',
            );
            // WebKitGTK's window has a minimum width; everywhere else the view is what was asked.
            if (engine !== 'webkit' || width === 1280) expect(viewport).toBeLessThanOrEqual(width);
            expect(content).toBeLessThanOrEqual(viewport);
            const png = await page.screenshot();
            expect(pngWidth(png)).toBeGreaterThanOrEqual(viewport);
            // A blank shot (one colour) compresses to under 1 KB; a page's text to tens of KB.
            expect(png.length).toBeGreaterThan(8_000);
            await writeFile(join(shots, `${name}-${engine}-${colorScheme}-${width}.png`), png);
            const { violations, passes } = await accessibility(page);
            expect(violations).toEqual([]);
            expect(passes).toEqual(expect.arrayContaining(['color-contrast', 'html-has-lang']));
          }
        }
      } finally {
        await page.close();
      }
    },
  );

  it('takes Allow and Deny from the keyboard alone: Tab reaches them, Enter and Space press them', async () => {
    const page = await openEnginePage(engine, { width: 1280, height: 800, colorScheme: 'light' });
    try {
      await page.goto(await consentUrl());
      await page.press('Tab');
      expect(await focused(page)).toBe('button Allow');
      await page.press('Enter');
      // Allowed: on to the upstream's sign-in page.
      await expect
        .poll(async () => new URL(await page.url()).origin, { timeout: 20_000 })
        .toBe(new URL(front.upstream.issuer).origin);

      await page.goto(await consentUrl());
      await page.press('Tab');
      await page.press('Tab');
      expect(await focused(page)).toBe('button Deny');
      await page.press('Space');
      // Denied: back to the host, with access_denied.
      await expect
        .poll(async () => (await page.url()).startsWith(redirect.url), { timeout: 20_000 })
        .toBe(true);
      expect(new URL(await page.url()).searchParams.get('error')).toBe('access_denied');
    } finally {
      await page.close();
    }
  });
});
