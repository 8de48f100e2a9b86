/**
 * The sign-in front's consent and error pages in Chromium, Firefox and WebKit, light and dark,
 * narrow and wide, as the real front serves them: each shot whole (kept in .tmp/front-pages/ to
 * look at), no page wider than its viewport, no WCAG 2.2 A or AA violation by axe-core (colour
 * contrast included) in either scheme, and Allow and Deny reached and pressed with the keyboard
 * alone. WebKitGTK's MiniBrowser window is never narrower than 447 px: there the narrow view is
 * the narrowest it has, and 320 px is a frame's, the pages held in a frame of that width by a
 * page of their own origin (a proxy on this machine allowing that one framing), checked as the
 * others are, from inside the frame.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ColorScheme,
  type Engine,
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

/**
 * Checks the page shown follows `colorScheme` (light text on dark, or dark on light) and is no
 * wider than its view: resolves with the view's width.
 */
async function checkLayout(page: EnginePage, colorScheme: ColorScheme): Promise<number> {
  expect(await page.evaluate<boolean>('matchMedia("(prefers-color-scheme: dark)").matches')).toBe(
    colorScheme === 'dark',
  );
  const [background, text] = await page.evaluate<[number, number]>(
    `[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]
    .map((color) => color.match(/\\d+/g).slice(0, 3).reduce((sum, part) => sum + Number(part), 0))`,
  );
  if (colorScheme === 'dark') expect(background).toBeLessThan(text);
  else expect(background).toBeGreaterThan(text);
  const [viewport, content] = await page.evaluate<[number, number]>(
    '[document.documentElement.clientWidth, document.documentElement.scrollWidth]',
  );
  expect(content).toBeLessThanOrEqual(viewport);
  return viewport;
}

/** Checks a shot is not blank, and keeps it as `file` to look at. */
async function keepShot(png: Buffer, file: string): Promise<void> {
  // A blank shot (one colour) compresses to under 1 KB; a page's text to tens of KB.
  expect(png.length).toBeGreaterThan(8_000);
  await writeFile(join(shots, file), png);
}

/** Checks axe-core finds no WCAG A or AA violation, colour contrast and `lang` among the passes. */
async function checkAccessibility(page: EnginePage): Promise<void> {
  const { violations, passes } = await accessibility(page);
  expect(violations).toEqual([]);
  expect(passes).toEqual(expect.arrayContaining(['color-contrast', 'html-has-lang']));
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
            const viewport = await checkLayout(page, colorScheme);
            // WebKitGTK's window has a minimum width; everywhere else the view is what was asked.
            if (engine !== 'webkit' || width === 1280) expect(viewport).toBeLessThanOrEqual(width);
            const png = await page.screenshot();
            expect(pngWidth(png)).toBeGreaterThanOrEqual(viewport);
            await keepShot(png, `${name}-${engine}-${colorScheme}-${width}.png`);
            await checkAccessibility(page);
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

/** The front's answers through the framing proxy: each request's method and path, its status and Location. */
interface ProxiedAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly location: string | undefined;
}

/**
 * A proxy on this machine in front of the front at `target`, whose own page `/frame?src=<path>`
 * holds `<path>` in a frame 320 px wide: every other request is passed on to the front as it came,
 * and each answer comes back as the front wrote it but for its framing, allowed to the proxy's own
 * origin alone (`frame-ancestors 'self'` for `'none'`, no `X-Frame-Options`). The rest of the
 * Content-Security-Policy (the stylesheet's hash) still applies.
 */
async function startFramingProxy(
  target: string,
): Promise<{ origin: string; answers: ProxiedAnswer[]; close(): void }> {
  const { hostname, port } = new URL(target);
  const answers: ProxiedAnswer[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname === '/frame') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="en"><head><title>A 320 px frame</title></head>
<body style="margin:0"><iframe title="The page" src="${url.searchParams.get('src')}" style="display:block;border:0;width:320px;height:640px"></iframe></body></html>`,
      );
      return;
    }
    const outgoing = request(
      { host: hostname, port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers['x-frame-options'];
        const policy = headers['content-security-policy'];
        if (typeof policy === 'string') {
          headers['content-security-policy'] = policy.replace(
            "frame-ancestors 'none'",
            "frame-ancestors 'self'",
          );
        }
        answers.push({
          method: req.method ?? '',
          path: url.pathname,
          status: answer.statusCode ?? 0,
          location: answer.headers.location,
        });
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.writeHead(502).end());
    req.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('in webkit, 320 px wide: the pages in a frame of that width', { timeout: 180_000 }, () => {
  const engine: Engine = 'webkit';
  let proxy: Awaited<ReturnType<typeof startFramingProxy>>;
  beforeAll(async () => {
    proxy = await startFramingProxy(front.origin);
  });
  afterAll(() => proxy?.close());

  /** Shows `url` (a page of the front) in the proxy's 320 px frame, and acts in the frame. */
  async function showFramed(page: EnginePage, url: string): Promise<void> {
    const { pathname, search } = new URL(url);
    await page.frame?.(null);
    await page.goto(`${proxy.origin}/frame?src=${encodeURIComponent(pathname + search)}`);
    await page.frame?.(0);
  }

  it.each(['light', 'dark'] as const)(
    '%s: each page shot at 320 px, no wider than the view, no WCAG AA violation',
    async (colorScheme: ColorScheme) => {
      const page = await openEnginePage(engine, { width: 480, height: 800, colorScheme });
      try {
        for (const [name, url] of [
          ['consent', await consentUrl()],
          ['error', errorUrl()],
        ] as const) {
          await showFramed(page, url);
          expect(await page.evaluate<number>('innerWidth')).toBe(320);
          expect(await checkLayout(page, colorScheme)).toBeLessThanOrEqual(320);
          await checkAccessibility(page);
          // The frame made as tall as its page, then the page holding it shot.
          await page.frame?.(null);
          await page.evaluate<undefined>(
            `(() => {
              const frame = document.querySelector('iframe');
              frame.style.height = frame.contentDocument.documentElement.scrollHeight + 'px';
            })()`,
          );
          await keepShot(await page.screenshot(), `${name}-${engine}-${colorScheme}-320-frame.png`);
        }
      } finally {
        await page.close();
      }
    },
  );

  it('takes Allow and Deny from the keyboard alone in the frame', async () => {
    const page = await openEnginePage(engine, { width: 480, height: 800, colorScheme: 'light' });
    try {
      await showFramed(page, await consentUrl());
      await page.press('Tab');
      expect(await focused(page)).toBe('button Allow');
      await page.press('Enter');
      // Allowed: the front sends the person on to the upstream's sign-in.
      await expect
        .poll(() => proxy.answers.find(({ path }) => path.endsWith('/confirm'))?.location, {
          timeout: 20_000,
        })
        .toMatch(new RegExp(`^${front.upstream.issuer}`));

      proxy.answers.length = 0;
      await showFramed(page, await consentUrl());
      await page.press('Tab');
      await page.press('Tab');
      expect(await focused(page)).toBe('button Deny');
      await page.press('Space');
      // Denied: the frame is sent back to the host, with access_denied.
      await expect
        .poll(async () => page.evaluate<string>('location.href'), { timeout: 20_000 })
        .toMatch(new RegExp(`^${redirect.url}\\?.*error=access_denied`));
      expect(proxy.answers.find(({ path }) => path.endsWith('/confirm'))?.status).toBe(303);
    } finally {
      await page.close();
    }
  });
});
