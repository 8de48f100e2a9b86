/**
 * Releases go through changesets: every pending changeset is well formed, and `npm run version`
 * (run here on a copy of the repo, never on the repo itself) turns them into a CHANGELOG entry
 * and a new version in package.json and src/version.ts alike.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';

const repo = new URL('../..', import.meta.url).pathname;
const BUMPS = ['patch', 'minor', 'major'] as const;
type Bump = (typeof BUMPS)[number];

interface Changeset {
  file: string;
  bump: Bump | undefined;
  packages: string[];
  summary: string;
}

async function pendingChangesets(dir: string): Promise<Changeset[]> {
  const files = (await readdir(join(dir, '.changeset'))).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(join(dir, '.changeset', file), 'utf8');
      const [, front = '', body = ''] = text.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/) ?? [];
      const entries = [...front.matchAll(/^"([^"]+)":\s*(\w+)\s*$/gm)];
      const bump = entries[0]?.[2];
      return {
        file,
        bump: BUMPS.includes(bump as Bump) ? (bump as Bump) : undefined,
        packages: entries.map((entry) => entry[1] ?? ''),
        summary: body.trim(),
      };
    }),
  );
}

function bumped(version: string, bump: Bump): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

async function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  const { code, stdout, stderr } = await runProcess(command, args, { cwd });
  return { code, output: stdout + stderr };
}

const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('pending changesets', () => {
  it('each name the agentchat package with a patch, minor or major bump, and say what changed', async () => {
    const changesets = await pendingChangesets(repo);
    const problems = changesets.flatMap((changeset) => [
      ...(changeset.packages.length === 1 && changeset.packages[0] === 'agentchat'
        ? []
        : [`${changeset.file}: names ${JSON.stringify(changeset.packages)}, not "agentchat"`]),
      ...(changeset.bump ? [] : [`${changeset.file}: bump is not patch, minor or major`]),
      ...(changeset.summary.length >= 20 ? [] : [`${changeset.file}: summary too short`]),
    ]);
    expect(problems).toEqual([]);
  });
});

describe('npm run version', () => {
  it('writes the CHANGELOG, bumps package.json and keeps src/version.ts in step', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'agentchat-release-'));
    scratch.push(copy);
    for (const path of [
      'package.json',
      'CHANGELOG.md',
      '.changeset',
      'src/version.ts',
      'scripts/sync-version.ts',
    ]) {
      await mkdir(join(copy, path, '..'), { recursive: true });
      await cp(join(repo, path), join(copy, path), { recursive: true });
    }
    await symlink(join(repo, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const before = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8')).version as string;
    const changesets = await pendingChangesets(copy);
    // Changesets picks the largest bump among the pending ones.
    const largest = BUMPS.filter((bump) => changesets.some((c) => c.bump === bump)).at(-1);

    const { code, output } = await run('npm', ['run', 'version'], copy);

    expect(code, output).toBe(0);
    const after = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8')).version as string;
    const expected = largest ? bumped(before, largest) : before;
    expect(after).toBe(expected);
    expect(await readFile(join(copy, 'src/version.ts'), 'utf8')).toContain(
      `export const VERSION = '${expected}';`,
    );
    const changelog = await readFile(join(copy, 'CHANGELOG.md'), 'utf8');
    if (largest) expect(changelog).toContain(`## ${expected}`);
    for (const changeset of changesets) {
      expect(changelog).toContain(changeset.summary.split('\n')[0]);
    }
    // The changesets are used up; the config stays.
    expect(await readdir(join(copy, '.changeset'))).toEqual(['config.json']);
  });
});
