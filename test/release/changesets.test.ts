/**
 * Releases go through changesets (docs/maintainers/releasing.md): every pending changeset is well
 * formed, the version in package.json is the one the CHANGELOG's newest entry describes, and
 * `npm run version` (run here on a copy of the repo, never on the repo itself) turns the next
 * changeset into a new entry above it and a new version in package.json and src/version.ts alike,
 * and rewrites the API reports of api/ for it.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bumped, largestBump, pendingChangesets } from '../../scripts/changesets.js';
import { copyRepo } from '../helpers/repo-copy.js';
import { runProcess } from '../helpers/run-process.js';

const repo = new URL('../..', import.meta.url).pathname;
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

/** The version of the newest entry in a CHANGELOG: its first `## x.y.z` heading. */
function newestEntry(changelog: string): string | undefined {
  return changelog.match(/^## (\d+\.\d+\.\d+\S*)$/m)?.[1];
}

describe('CHANGELOG.md', () => {
  it('opens with the entry of the version package.json holds', async () => {
    const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
      version: string;
    };
    const changelog = await readFile(join(repo, 'CHANGELOG.md'), 'utf8');
    expect(changelog.split('\n')[0]).toBe('# Changelog');
    expect(newestEntry(changelog)).toBe(pkg.version);
  });
});

describe('npm run version', () => {
  it('makes the next changeset a new version above the current one, and keeps src/version.ts in step', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'agentchat-release-'));
    scratch.push(copy);
    await copyRepo(copy);
    // The next change after the current version: a fix.
    const summary = 'Fix the next thing users would notice, for the release test.';
    await writeFile(
      join(copy, '.changeset', 'next-fix.md'),
      `---\n"agentchat": patch\n---\n\n${summary}\n`,
    );
    const before = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8')).version as string;
    const changelogBefore = await readFile(join(copy, 'CHANGELOG.md'), 'utf8');
    const changesets = await pendingChangesets(copy);
    const largest = largestBump(changesets);
    if (!largest) throw new Error('The copy has no changeset to release.');

    const { code, output } = await run('npm', ['run', 'version'], copy);

    expect(code, output).toBe(0);
    const after = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8')).version as string;
    const expected = bumped(before, largest);
    expect(after).toBe(expected);
    expect(await readFile(join(copy, 'src/version.ts'), 'utf8')).toContain(
      `export const VERSION = '${expected}';`,
    );
    const changelog = await readFile(join(copy, 'CHANGELOG.md'), 'utf8');
    expect(newestEntry(changelog)).toBe(expected);
    for (const changeset of changesets) {
      expect(changelog).toContain(changeset.summary.split('\n')[0]);
    }
    // The released entries stay as they were, below the new one.
    const released = changelogBefore.slice(changelogBefore.indexOf(`## ${before}`));
    expect(changelog.endsWith(released)).toBe(true);
    expect(changelog.indexOf(`## ${expected}`)).toBeLessThan(changelog.indexOf(`## ${before}`));
    // The changesets are used up; the config stays.
    expect(await readdir(join(copy, '.changeset'))).toEqual(['config.json']);
    // The API reports are the new version's, for the Version Packages pull request to carry.
    expect(await readFile(join(copy, 'api/agentchat.api.md'), 'utf8')).toContain(
      `export const VERSION = "${expected}";`,
    );
    // It runs npm, changesets and API Extractor in child processes: seconds on a busy machine,
    // tens of seconds on a loaded one.
  }, 180_000);
});
