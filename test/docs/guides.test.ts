/**
 * The README and the guides are checked like code: every TypeScript sample compiles against the
 * current API, every relative link (and #anchor) leads somewhere, and the README keeps the
 * order a user reads it in.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencedTypeScript, repo, typecheckSnippets } from '../helpers/doc-snippets.js';

/** The Markdown a user reads: README, the guides, the examples' index. */
async function markdownFiles(): Promise<string[]> {
  const guides = (await readdir(join(repo, 'docs'))).filter((file) => file.endsWith('.md'));
  return ['README.md', 'examples/README.md', ...guides.map((file) => `docs/${file}`)];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    const heading = !inFence && line.match(/^#{1,6}\s+(.*)$/);
    if (heading) {
      anchors.add(
        (heading[1] ?? '')
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, '')
          .trim()
          .replace(/\s/g, '-'),
      );
    }
  }
  return anchors;
}

describe('the guides', () => {
  it('have TypeScript samples that compile against the current API', async () => {
    const snippets = [];
    for (const file of await markdownFiles()) {
      snippets.push(...fencedTypeScript(await readFile(join(repo, file), 'utf8'), file));
    }
    expect(snippets.length).toBeGreaterThan(20);
    expect(await typecheckSnippets(snippets)).toEqual([]);
  }, 120_000);

  it('have relative links that lead to files and headings that exist', async () => {
    const broken: string[] = [];
    for (const file of await markdownFiles()) {
      const text = await readFile(join(repo, file), 'utf8');
      // Links outside code: drop fenced blocks and inline code first.
      const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target = ''] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [path = '', anchor] = target.split('#');
        const resolved = path ? join(dirname(join(repo, file)), path) : join(repo, file);
        if (!existsSync(resolved)) {
          broken.push(`${file}: ${target} (no ${relative(repo, resolved)})`);
          continue;
        }
        if (anchor && resolved.endsWith('.md')) {
          const anchors = anchorsOf(await readFile(resolved, 'utf8'));
          if (!anchors.has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the README', () => {
  it('opens with the two commands to try the SDK', async () => {
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const tryIt = readme.slice(0, readme.indexOf('\n## ', readme.indexOf('## Try it') + 1));
    expect(tryIt).toContain('npm install && npm run demo');
    expect(tryIt).toContain('npm test');
  });

  it('has its sections in the order a user needs them', async () => {
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const order = [
      'Try it',
      'Install',
      'Quickstart',
      'Configuration',
      'Errors',
      'Retries',
      'Timeouts and cancellation',
      'Raw responses and request ids',
      'Browsers',
      'Testing with the mock',
      'Requirements',
      'Versioning and releases',
      'Contributing',
    ];
    expect(headings.filter((heading) => order.includes(heading ?? ''))).toEqual(order);
  });
});
