/**
 * Checks the links of Markdown files the way GitHub and the npm registry read them: a relative
 * link must lead to a file (or folder) under the same root, and its #anchor to a heading there.
 * Used on the repo (test/docs/guides.test.ts) and on the extracted tarball
 * (test/release/pack.test.ts), where only what ships can be linked.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function anchorsOf(markdown: string): Set<string> {
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

/** Every link target in the prose of a Markdown text: code blocks and inline code left out. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/** Whether a link leaves the file tree: `https:`, `mailto:` and the like. */
export function isAbsoluteUrl(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * The relative links of `files` (paths under `root`) that lead nowhere under `root`, one line
 * each: `docs/a.md: b.md#c (no heading #c)`. Empty when every link resolves.
 */
export async function brokenRelativeLinks(
  root: string,
  files: readonly string[],
): Promise<string[]> {
  const broken: string[] = [];
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    for (const target of linkTargets(text)) {
      if (isAbsoluteUrl(target)) continue;
      const [path = '', anchor] = target.split('#');
      const resolved = path ? join(dirname(join(root, file)), path) : join(root, file);
      if (relative(root, resolved).startsWith('..') || !existsSync(resolved)) {
        broken.push(`${file}: ${target} (no ${relative(root, resolved)})`);
        continue;
      }
      if (anchor && resolved.endsWith('.md')) {
        const anchors = anchorsOf(await readFile(resolved, 'utf8'));
        if (!anchors.has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor})`);
      }
    }
  }
  return broken;
}
