/**
 * The TypeDoc reference is part of the product: it must build from `typedoc.json` with every
 * validation on and warnings treated as errors, and every exported symbol must carry the TSDoc a
 * user reads first (a summary, an example, `@default` on options, `@throws` on calls that fail).
 *
 * The documentation site as a reader meets it (`npm run docs`): the README is its front page
 * with one title, every guide and the changelog are pages of the site named after their
 * heading, the guides link to each other and to the reference, and a link checker (linkinator)
 * crawls every page and finds no broken internal link or #anchor. Only the built files are
 * checked: links that leave the site are skipped, so the test needs no network.
 *
 * Both are read from one build of the site, made once per run before any file starts
 * (test/global-setup.ts): building takes seconds.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LinkChecker } from 'linkinator';
import {
  type Comment,
  type DeclarationReflection,
  type ProjectReflection,
  ReflectionKind,
} from 'typedoc';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  fencedTypeScript,
  repo,
  type Snippet,
  typecheckSnippets,
} from '../helpers/doc-snippets.js';
import { type SharedSite, sharedSite } from '../helpers/shared-build.js';

let site: SharedSite;

beforeAll(async () => {
  site = await sharedSite();
});

function requireProject(): ProjectReflection {
  if (!site.project) {
    throw new Error(`TypeDoc could not convert the project:\n${site.messages.join('\n')}`);
  }
  return site.project;
}

describe('the TypeDoc reference', () => {
  it('builds with validation on and no warnings', async () => {
    requireProject();
    expect(site.messages).toEqual([]);
    const index = await readFile(join(site.out, 'index.html'), 'utf8');
    expect(index).toContain('agentchat');
  });

  it('documents every entry point', () => {
    const names = requireProject().children?.map((module) => module.name);
    expect(names).toEqual([
      'agentchat',
      'agentchat/ai-sdk',
      'agentchat/langchain',
      'agentchat/mastra',
      'agentchat/mcp',
      'agentchat/openai-agents',
      'agentchat/otel',
      'agentchat/testing',
    ]);
  });

  it('has a page for the client, its resources, every error, the mock service and the MCP server', () => {
    const exported = allExports(requireProject()).map((reflection) => reflection.name);
    for (const name of [
      'Client',
      'Projects',
      'Chat',
      'ClientOptions',
      'RequestOptions',
      'APIError',
      'RateLimitError',
      'createMockService',
      'startMockServer',
      'Fault',
      'createMcpServer',
      'McpServerOptions',
    ]) {
      expect(exported).toContain(name);
    }
  });
});

describe('TSDoc on every export', () => {
  it('gives each exported symbol a summary and an @example', () => {
    const missing: string[] = [];
    for (const reflection of allExports(requireProject())) {
      const comment = commentOf(reflection);
      if (!hasSummary(comment)) missing.push(`${reflection.name}: no summary`);
      if (!comment?.getTag('@example')) missing.push(`${reflection.name}: no @example`);
    }
    expect(missing).toEqual([]);
  });

  it('gives each option a summary and a @default', () => {
    const missing: string[] = [];
    for (const options of allExports(requireProject()).filter(isOptionsInterface)) {
      for (const property of options.children ?? []) {
        const comment = commentOf(property);
        const where = `${options.name}.${property.name}`;
        if (!hasSummary(comment)) missing.push(`${where}: no summary`);
        if (!comment?.getTag('@default')) missing.push(`${where}: no @default`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has @example code that compiles against the current API', async () => {
    const snippets: Snippet[] = [];
    for (const reflection of Object.values(requireProject().reflections)) {
      for (const tag of reflection.comment?.getTags('@example') ?? []) {
        const text = tag.content.map((part) => part.text).join('');
        snippets.push(...fencedTypeScript(text, reflection.getFullName()));
      }
    }
    expect(snippets.length).toBeGreaterThan(50);
    expect(await typecheckSnippets(snippets)).toEqual([]);
  }, 120_000);

  it('says what each call throws, with an @example', () => {
    const missing: string[] = [];
    for (const [where, comment] of fallibleCalls(requireProject())) {
      if (!comment?.getTag('@throws')) missing.push(`${where}: no @throws`);
      if (!comment?.getTag('@example')) missing.push(`${where}: no @example`);
    }
    expect(missing).toEqual([]);
  });
});

function allExports(root: ProjectReflection): DeclarationReflection[] {
  return (root.children ?? []).flatMap((module) => module.children ?? []);
}

/** A function's or method's comment lives on its signature; everything else's on itself. */
function commentOf(reflection: DeclarationReflection): Comment | undefined {
  return reflection.comment ?? reflection.signatures?.[0]?.comment;
}

function hasSummary(comment: Comment | undefined): boolean {
  return (comment?.summary ?? []).some((part) => part.text.trim() !== '');
}

function isOptionsInterface(reflection: DeclarationReflection): boolean {
  return reflection.kindOf(ReflectionKind.Interface) && reflection.name.endsWith('Options');
}

/**
 * Calls a user makes that can fail: the constructor of a class that checks its options, exported
 * functions, and methods that take input or return a promise. Type guards and members a user
 * implements rather than calls (`Logger`) are not calls that fail.
 */
function fallibleCalls(root: ProjectReflection): [string, Comment | undefined][] {
  const calls: [string, Comment | undefined][] = [];
  // Interfaces the user implements: their methods are the user's calls, not the SDK's.
  const userImplemented = new Set(['Logger', 'TokenCache']);
  for (const reflection of allExports(root)) {
    if (reflection.kindOf(ReflectionKind.Function) && !isTypeGuard(reflection)) {
      calls.push([reflection.name, commentOf(reflection)]);
    }
    if (
      !reflection.kindOf(ReflectionKind.ClassOrInterface) ||
      userImplemented.has(reflection.name)
    ) {
      continue;
    }
    for (const member of reflection.children ?? []) {
      // Inherited members are checked where they are declared; `[Symbol.hasInstance]` and the
      // like are language hooks, not calls a user makes.
      if (member.flags.isInherited || member.flags.isExternal || member.name.startsWith('[')) {
        continue;
      }
      const signature = member.signatures?.[0];
      if (!signature) continue;
      const checksOptions =
        member.kindOf(ReflectionKind.Constructor) && reflection.name === 'Client';
      const takesInput =
        member.kindOf(ReflectionKind.Method) && (signature.parameters?.length ?? 0) > 0;
      const returnsPromise = /Promise$/.test(signature.type?.toString().split('<')[0] ?? '');
      if (checksOptions || ((takesInput || returnsPromise) && !isTypeGuard(member))) {
        calls.push([`${reflection.name}.${member.name}`, commentOf(member)]);
      }
    }
  }
  return calls;
}

function isTypeGuard(reflection: DeclarationReflection): boolean {
  return reflection.signatures?.[0]?.type?.type === 'predicate';
}

async function page(path: string): Promise<string> {
  return readFile(join(site.out, path), 'utf8');
}

/** The `<h1>` texts of a page, tags stripped. */
function titles(html: string): string[] {
  return [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((match) =>
    (match[1] ?? '').replace(/<[^>]+>/g, '').trim(),
  );
}

/**
 * Every guide of docs/ and the changelog, by file name without `.md`: what the package ships. The
 * maintainers' pages (docs/maintainers/) are read on GitHub, next to the code they describe.
 */
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

  it('renders every guide the package ships and the changelog, and no other page, each titled by its first heading', async () => {
    const rendered: Record<string, string[]> = {};
    const expected: Record<string, string[]> = {};
    for (const name of await guideNames()) {
      const source = name === 'CHANGELOG' ? 'CHANGELOG.md' : `docs/${name}.md`;
      const heading = (await readFile(join(repo, source), 'utf8')).match(/^# (.+)$/m)?.[1] ?? '';
      expected[name] = [heading.replaceAll('`', '')];
      rendered[name] = titles(await page(`documents/${name}.html`));
    }
    expect(rendered).toEqual(expected);
    // Those and no others: the site's guides are the package's.
    const pages = (await readdir(join(site.out, 'documents'))).filter((f) => f.endsWith('.html'));
    expect(pages.map((file) => file.replace(/\.html$/, '')).sort()).toEqual(
      Object.keys(expected).sort(),
    );
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
