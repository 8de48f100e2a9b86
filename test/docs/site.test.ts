/**
 * The documentation site as a reader meets it (`npm run docs`): the README is its front page
 * with one title, every guide and the changelog are pages of the site named after their
 * heading, the guides link to each other and to the reference, and a link checker (linkinator)
 * crawls every page and finds no broken internal link or #anchor. Only the built files are
 * checked: links that leave the site are skipped, so the test needs no network.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LinkChecker } from 'linkinator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltSite, buildSite } from '../helpers/build-site.js';
import { repo } from '../helpers/doc-snippets.js';

let site: BuiltSite;

beforeAll(async () => {
  site = await buildSite();
  if (site.messages.length > 0) throw new Error(`TypeDoc reported:\n${site.messages.join('\n')}`);
}, 120_000);

afterAll(async () => {
  if (site) await rm(site.out, { recursive: true, force: true });
});

async function page(path: string): Promise<string> {
  return readFile(join(site.out, path), 'utf8');
}

/** The `<h1>` texts of a page, tags stripped. */
function titles(html: string): string[] {
  return [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((match) =>
    (match[1] ?? '').replace(/<[^>]+>/g, '').trim(),
  );
}

/** Every guide of docs/ and the changelog, by file name without `.md`. */
async function guideNames(): Promise<string[]> {
  const guides = (await readdir(join(repo, 'docs'))).filter((file) => file.endsWith('.md'));
  return [...guides, 'CHANGELOG.md'].map((file) => file.replace(/\.md$/, ''));
}

describe('the documentation site', () => {
  it('opens on the README with its title once', async () => {
    const index = await page('index.html');
    expect(titles(index)).toEqual(['agentchat']);
    expect(index).toContain('The official TypeScript SDK');
  });

  it('renders every guide and the changelog as a page titled by its first heading', async () => {
    const rendered: Record<string, string[]> = {};
    const expected: Record<string, string[]> = {};
    for (const name of await guideNames()) {
      const source = name === 'CHANGELOG' ? 'CHANGELOG.md' : `docs/${name}.md`;
      const heading = (await readFile(join(repo, source), 'utf8')).match(/^# (.+)$/m)?.[1] ?? '';
      expected[name] = [heading.replaceAll('`', '')];
      rendered[name] = titles(await page(`documents/${name}.html`));
    }
    expect(rendered).toEqual(expected);
    // Rendered as HTML, not shown as Markdown source.
    expect(await page('documents/errors.html')).not.toContain('## From status to class');
  });

  it('links the guides to each other, to the reference and to the examples', async () => {
    const errors = await page('documents/errors.html');
    expect(errors).toContain('href="retries.html"');
    // Inline code naming an export links to its reference page.
    expect(errors).toMatch(/<a href="\.\.\/classes\/agentchat\.RateLimitError\.html"[^>]*><code>/);
    const guides = await page('documents/README.html');
    expect(guides).toContain('href="../index.html"');
    expect(guides).toContain('href="https://github.com/agentchat/agentchat-js/tree/main/examples"');
  });

  it('never links to a folder, which a browser shows as a file listing when opened from disk', async () => {
    const folderLinks: string[] = [];
    for (const dir of ['', 'documents', 'classes']) {
      for (const file of (await readdir(join(site.out, dir))).filter((f) => f.endsWith('.html'))) {
        const html = await page(join(dir, file));
        for (const [, href] of html.matchAll(/href="([^"]*)"/g)) {
          if (href && /^(\.\.?\/)+(#.*)?$/.test(href)) folderLinks.push(`${dir}/${file}: ${href}`);
        }
      }
    }
    expect(folderLinks).toEqual([]);
  });

  it('has no broken internal link or anchor (linkinator over every page)', async () => {
    const checker = new LinkChecker();
    const result = await checker.check({
      path: site.out,
      recurse: true,
      checkFragments: true,
      // Offline: linkinator serves the built files on localhost and follows only those. Links to
      // other sites are not this site's to check.
      linksToSkip: async (link) => !/^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(link),
    });
    const broken = result.links
      .filter((link) => link.state === 'BROKEN')
      .map((link) => `${link.parent ?? '?'} -> ${link.url} (${link.status ?? 'no status'})`);
    expect(broken).toEqual([]);
    // It crawled the whole site: every guide and the reference pages, not only the front page.
    const checked = new Set(result.links.filter((link) => link.state === 'OK').map((l) => l.url));
    expect(checked).toContain(join(site.out, 'documents/mock-service.html'));
    expect(checked).toContain(join(site.out, 'classes/agentchat.Client.html'));
  }, 60_000);
});
