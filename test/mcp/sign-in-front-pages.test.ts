/**
 * The sign-in front's consent and error pages, as the real front serves them to Chromium: the
 * host named as it registered itself and marked unverified (a Client ID Metadata Document's host
 * verified), where the access goes, each scope in words whatever the scopes are called here, and
 * every value a client or an upstream chose shown as text: no element made of it, no request
 * sent to a URL it names. The pages load nothing but their one inline stylesheet, which the
 * Content-Security-Policy allows by its hash, and cannot be framed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentPage } from '../../src/mcp/front/consent-page.js';
import {
  type SignInFront,
  type SignInScene,
  startSignInFront,
  startSignInScene,
} from '../helpers/sign-in-front.js';
import { authorizationUrl, registerPublicClient } from '../helpers/sign-in-host.js';

let scene: SignInScene;
let front: SignInFront;
/** A server the hostile client's URLs point at: nothing may ever reach it. */
let bait: Server;
let baitOrigin: string;
const baitRequests: string[] = [];

beforeAll(async () => {
  scene = await startSignInScene('sk_front_pages_5e7b');
  front = scene.front;
  bait = createServer((req, res) => {
    baitRequests.push(req.url ?? '');
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  baitOrigin = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  bait?.closeAllConnections();
  bait?.close();
  await scene?.close();
});

/** The tags the pages are made of: anything else came from a value shown. */
const PAGE_TAGS = new Set(
  'html head meta title style body main p h1 h2 span strong section ul li code form input button time bdi'.split(
    ' ',
  ),
);

/** Opens `url` in a new context, recording every URL the page asks for. */
async function open(url: URL | string): Promise<{ page: Page; requested: string[] }> {
  const context = await scene.browser.newContext();
  const page = await context.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(String(url));
  return { page, requested };
}

/** The tag names in the page, each once. */
function tagsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...new Set([...document.querySelectorAll('*')].map((element) => element.localName)),
  ]);
}

/** The consent page's scope lines, as the person reads them. */
async function scopeLines(page: Page): Promise<string[]> {
  return (await page.locator('#scopes li').allTextContents()).map((line) =>
    line.replace(/\s+/g, ' ').trim(),
  );
}

describe('the consent page', { timeout: 60_000 }, () => {
  it('names a registered host as it named itself, marked unverified, and where the access goes', async () => {
    const { redirect } = scene;
    const { clientId } = await registerPublicClient(front.origin, redirect.url, 'Claude');
    const url = authorizationUrl(front.origin, clientId, redirect.url);
    // offline_access counts only with prompt=consent (OpenID Connect Core 11).
    url.searchParams.set('scope', 'agentchat:read agentchat:write offline_access');
    url.searchParams.set('prompt', 'consent');
    const { page } = await open(url);
    try {
      expect(await page.locator('#client-name').textContent()).toBe('Claude');
      expect(await page.locator('#client-identity').textContent()).toMatch(
        /^Unverified\s*The application chose this name itself; nobody has checked it\.$/,
      );
      expect(await page.locator('#redirect-host').textContent()).toBe(new URL(redirect.url).host);
      expect(await page.locator('#redirect-uri').textContent()).toBe(redirect.url);
      expect(await scopeLines(page)).toEqual([
        'Read your projects agentchat:read',
        'Create projects and send messages to their agents agentchat:write',
        'Stay signed in offline_access',
      ]);
      expect(await page.locator('#upstream-host').textContent()).toBe(
        new URL(front.upstream.issuer).host,
      );
      expect(await page.locator('#client-id').textContent()).toBe(clientId);
      // Allow and Deny are the form's buttons, in that order.
      expect(await page.getByRole('button').allTextContents()).toEqual(['Allow', 'Deny']);
    } finally {
      await page.context().close();
    }
  });

  it('says what each scope allows by its role, under the names --scope-prefix, --read-scope and --write-scope give', async () => {
    const renamed = await startSignInFront('sk_front_pages_renamed', undefined, {
      scopePrefix: 'api://3f2a9c4e-0000-4000-8000-000000000001/',
      readScope: 'projects.read',
      writeScope: 'projects.write',
    });
    try {
      const { redirect } = scene;
      const { clientId } = await registerPublicClient(renamed.origin, redirect.url);
      const url = authorizationUrl(renamed.origin, clientId, redirect.url);
      const read = 'api://3f2a9c4e-0000-4000-8000-000000000001/projects.read';
      const write = 'api://3f2a9c4e-0000-4000-8000-000000000001/projects.write';
      url.searchParams.set('scope', `${read} ${write}`);
      const { page } = await open(url);
      try {
        expect(await scopeLines(page)).toEqual([
          `Read your projects ${read}`,
          `Create projects and send messages to their agents ${write}`,
        ]);
      } finally {
        await page.context().close();
      }
    } finally {
      await renamed.close();
    }
  });

  it('shows a scope it does not know as it was asked, marked unknown', async () => {
    const { redirect } = scene;
    const { clientId } = await registerPublicClient(front.origin, redirect.url);
    const url = authorizationUrl(front.origin, clientId, redirect.url);
    url.searchParams.set('scope', 'agentchat:read admin:everything');
    const { page } = await open(url);
    try {
      expect(await scopeLines(page)).toEqual([
        'Read your projects agentchat:read',
        'Unknown admin:everything: a permission this server does not describe',
      ]);
    } finally {
      await page.context().close();
    }
  });

  it('names a Client ID Metadata Document host by the host of its client_id, verified', async () => {
    const context = await scene.browser.newContext();
    const page = await context.newPage();
    try {
      await page.setContent(
        consentPage({
          clientName: 'Claude',
          clientId: 'https://claude.ai/oauth/mcp-client-metadata.json',
          redirectUri: 'https://claude.ai/api/mcp/auth_callback',
          scopes: ['agentchat:read'],
          scopeNames: { read: 'agentchat:read', write: 'agentchat:write' },
          action: '/interaction/x/confirm',
          csrfToken: 'token',
          upstream: undefined,
        }),
      );
      expect(await page.locator('#client-host').textContent()).toBe('claude.ai');
      expect(await page.locator('#client-identity').textContent()).toMatch(/^Verified host/);
      expect(await page.locator('#client-identity').textContent()).not.toMatch(/Unverified/);
      expect(await page.locator('#redirect-host').textContent()).toBe('claude.ai');
    } finally {
      await context.close();
    }
  });

  it('loads nothing but its inline stylesheet, allowed by its hash, and cannot be framed', async () => {
    const { redirect } = scene;
    const { clientId } = await registerPublicClient(front.origin, redirect.url);
    const url = authorizationUrl(front.origin, clientId, redirect.url);
    const { page, requested } = await open(url);
    try {
      const answer = await page.context().request.get(page.url());
      const policy = answer.headers()['content-security-policy'] ?? '';
      expect(policy).toMatch(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; frame-ancestors 'none'; base-uri 'none'$/,
      );
      expect(answer.headers()['x-frame-options']).toBe('DENY');
      // The stylesheet applies: the policy's hash is the stylesheet's.
      expect(
        await page.getByRole('button', { name: 'Allow' }).evaluate((button) => {
          return getComputedStyle(button).backgroundColor;
        }),
      ).toBe('rgb(29, 79, 163)');
      expect(requested.every((asked) => asked.startsWith(front.origin))).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it('shows markup in every field a client chose as text: no element made of it, no request to its URLs', async () => {
    const { redirect } = scene;
    const markup = (where: string) =>
      `<img src="${baitOrigin}/${where}.png"><script src="${baitOrigin}/${where}.js"></script>"'&amp;`;
    const clientName = `Claude ${markup('name')}`;
    const redirectUri = `${redirect.url}?next=<img src="${baitOrigin}/redirect.png">&amp;'`;
    const registered = await fetch(`${front.origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: clientName,
        redirect_uris: [redirectUri],
        client_uri: `${baitOrigin}/client"><img src="${baitOrigin}/client-uri.png">`,
        logo_uri: `${baitOrigin}/logo.png`,
        policy_uri: `${baitOrigin}/policy`,
        tos_uri: `${baitOrigin}/tos`,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const url = authorizationUrl(front.origin, clientId, redirectUri);
    // A scope token holds no space, quote or backslash (RFC 6749 section 3.3): markup still fits.
    const unknownScope = `<img/src=${baitOrigin}/scope.png>'&amp;`;
    url.searchParams.set('scope', `agentchat:read ${unknownScope}`);
    const { page, requested } = await open(url);
    try {
      expect(await page.locator('#client-name').textContent()).toBe(clientName);
      expect(await page.locator('#redirect-uri').textContent()).toBe(redirectUri);
      expect(await page.locator('#scopes li code').allTextContents()).toEqual([
        'agentchat:read',
        unknownScope,
      ]);
      expect((await tagsOf(page)).filter((tag) => !PAGE_TAGS.has(tag))).toEqual([]);
      expect(requested.filter((asked) => !asked.startsWith(front.origin))).toEqual([]);
      // Denied: the person goes back to the host, and still nothing reached the client's URLs.
      await Promise.all([
        page.waitForURL((next) => next.href.startsWith(redirect.url)),
        page.getByRole('button', { name: 'Deny' }).click(),
      ]);
      expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    } finally {
      await page.context().close();
    }
    expect(baitRequests).toEqual([]);
  });
});

/** Unicode tags spelling `text` (U+E0000 block): drawn as nothing at all. */
const tags = (text: string) =>
  [...text].map((character) => String.fromCodePoint(0xe0000 + character.charCodeAt(0))).join('');

/**
 * Where each of `words` is drawn in the page's first `selector`: the line (its top) and the x of
 * its first and of its last character, found in the rendered text. A word drawn backwards (by a
 * right-to-left override) has its last character left of its first.
 */
function drawnWords(
  page: Page,
  selector: string,
  words: readonly string[],
): Promise<{ word: string; top: number; first: number; last: number }[]> {
  return page.evaluate(
    ({ selector, words }) => {
      const root = document.querySelector(selector);
      if (root === null) return [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const texts: Text[] = [];
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        texts.push(node as Text);
      }
      const box = (node: Text, offset: number) => {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        return range.getBoundingClientRect();
      };
      return words.map((word) => {
        const node = texts.find((candidate) => candidate.data.includes(word));
        if (node === undefined)
          return { word, top: Number.NaN, first: Number.NaN, last: Number.NaN };
        const at = node.data.indexOf(word);
        const first = box(node, at);
        return {
          word,
          top: Math.round(first.top),
          first: first.x,
          last: box(node, at + word.length - 1).x,
        };
      });
    },
    { selector, words },
  );
}

describe('a name with hidden characters', { timeout: 60_000 }, () => {
  /** What the page's own sentence says around the name, in reading order. */
  const OWN_WORDS = ['Allow', 'Project', 'Agent', 'Chat', 'you?'];

  it.each([
    ['a right-to-left override (U+202E)', 'Claude Desktop \u202e', 'Claude Desktop \\u{202E}'],
    ['a right-to-left embedding (U+202B)', 'Claude Desktop \u202b', 'Claude Desktop \\u{202B}'],
    [
      'Unicode tags, an isolate and zero-width characters',
      `Claude\u200b${tags('Allow me')}\u2067 Desktop\u200d`,
      `Claude\\u{200B}${[...'Allow me'].map((c) => `\\u{E00${c.charCodeAt(0).toString(16).toUpperCase()}}`).join('')}\\u{2067} Desktop\\u{200D}`,
    ],
  ])(
    '%s: the name isolated, each hidden character shown, the page’s words in their order',
    async (_name, clientName, shown) => {
      const { redirect } = scene;
      const { clientId } = await registerPublicClient(front.origin, redirect.url, clientName);
      const { page } = await open(authorizationUrl(front.origin, clientId, redirect.url));
      try {
        await page.setViewportSize({ width: 1600, height: 800 });
        expect(await page.locator('#client-name').textContent()).toBe(shown);
        expect(await page.locator('#client-name').evaluate((element) => element.localName)).toBe(
          'bdi',
        );
        // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn is what is checked
        expect(await page.locator('h1').innerText()).toBe(
          `Allow ${shown} to use Project and Agent Chat as you?`,
        );
        // Nothing hidden is left in what the person reads, and nothing in the name is invisible:
        // each escape is drawn, with a width.
        // biome-ignore lint/performance/useDomNodeTextContent: the text as drawn is what is checked
        expect(await page.locator('main').innerText()).not.toMatch(/[\p{Cf}]/u);
        const marks = await page
          .locator('#client-name .hidden-char')
          .evaluateAll((spans) => spans.map((span) => span.getBoundingClientRect().width));
        expect(marks.length).toBe((shown.match(/\\u\{/g) ?? []).length);
        expect(marks.every((width) => width > 0)).toBe(true);
        // Drawn as written: the page's own words left to right, each word's letters too.
        // Reading order: line by line, left to right on a line.
        const place = ({ top, first }: { top: number; first: number }) => top * 100_000 + first;
        const drawn = await drawnWords(page, 'h1', OWN_WORDS);
        for (const { word, first, last } of drawn) {
          expect(last, `${word} drawn left to right`).toBeGreaterThan(first);
        }
        const places = drawn.map(place);
        expect(places).toEqual([...places].sort((a, b) => a - b));
        const name = await page
          .locator('#client-name')
          .evaluate((element) => element.getClientRects()[0]?.toJSON() as DOMRect);
        const namePlace = place({ top: Math.round(name.top), first: name.x });
        expect(namePlace).toBeGreaterThan(places[0] as number);
        expect(namePlace).toBeLessThan(places[1] as number);
        // The title holds the name between an isolate and its pop, its hidden characters shown.
        expect(await page.title()).toBe(`Allow \u2068${shown}\u2069? · Project and Agent Chat`);
      } finally {
        await page.context().close();
      }
    },
  );

  it('shows a very long name up to 120 characters, and says how many more it has', async () => {
    const { redirect } = scene;
    const clientName = `Claude ${'x'.repeat(5_000)}`;
    const { clientId } = await registerPublicClient(front.origin, redirect.url, clientName);
    const { page } = await open(authorizationUrl(front.origin, clientId, redirect.url));
    try {
      expect(await page.locator('#client-name').textContent()).toBe(clientName.slice(0, 120));
      expect(await page.locator('#client-name-more').textContent()).toBe('(4,887 more characters)');
      // The host's address is still on the first screen of a phone.
      await page.setViewportSize({ width: 320, height: 640 });
      const host = await page.locator('#redirect-host').boundingBox();
      expect((host?.y ?? Number.POSITIVE_INFINITY) + (host?.height ?? 0)).toBeLessThan(640);
    } finally {
      await page.context().close();
    }
  });
});

describe('the error page', { timeout: 60_000 }, () => {
  it('names the code and says what the person can do', async () => {
    const { page } = await open(
      authorizationUrl(front.origin, 'no-such-client', scene.redirect.url),
    );
    try {
      expect(await page.locator('h1').textContent()).toBe('The sign-in was refused');
      expect(await page.locator('#error-code').textContent()).toBe('invalid_client');
      expect(await page.locator('main').textContent()).toMatch(
        /What you can do\s+Go back to the application you came from and connect again\. It was given no access this time\.\s+If this happens again, tell whoever runs this server the code invalid_client and the time: \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
      );
    } finally {
      await page.context().close();
    }
  });

  it('shows markup in an upstream’s refusal as text', async () => {
    const { redirect } = scene;
    const refusal = `<img src="${baitOrigin}/refusal.png">`;
    front.upstream.refuseWith = refusal;
    const { clientId } = await registerPublicClient(front.origin, redirect.url);
    const context = await scene.browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      await page.goto(authorizationUrl(front.origin, clientId, redirect.url).href);
      await Promise.all([
        page.waitForURL((next) => next.pathname === '/oauth/callback'),
        page.getByRole('button', { name: 'Allow' }).click(),
      ]);
      expect(await page.locator('#error-description').textContent()).toContain(
        `it answered ${refusal}: Refused by the test: ${refusal}`,
      );
      expect((await tagsOf(page)).filter((tag) => !PAGE_TAGS.has(tag))).toEqual([]);
      expect(requested.filter((asked) => asked.startsWith(baitOrigin))).toEqual([]);
    } finally {
      front.upstream.refuseWith = undefined;
      await context.close();
    }
    expect(baitRequests).toEqual([]);
  });
});

describe('the pictures of docs/mcp.md', () => {
  it('are the files of docs/images, each shown', async () => {
    // Linked by their address in the repository: docs/images does not ship in the package.
    const guide = await readFile(join(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
    const shown = [
      ...guide.matchAll(
        /!\[[^\]]+\]\(https:\/\/github\.com\/agentchat\/agentchat-js\/raw\/main\/docs\/images\/([^)]+)\)/g,
      ),
    ].map((match) => match[1]);
    const files = await readdir(join(import.meta.dirname, '../../docs/images'));
    // The icon is the server's own (src/mcp/icons.ts), linked by server.json, not a picture here.
    expect(shown.sort()).toEqual(files.filter((file) => !file.startsWith('icon.')).sort());
    expect(shown.length).toBeGreaterThan(0);
  });
});
