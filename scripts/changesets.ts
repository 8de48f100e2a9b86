/**
 * Reads pending changesets the way `changeset version` does: for the API check (scripts/api/),
 * which asks whether their largest bump covers a change of the public API, and for the tests that
 * predict the version a release makes (through test/helpers/changesets.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The bumps a changeset may ask for, smallest first. */
export const BUMPS = ['patch', 'minor', 'major'] as const;
export type Bump = (typeof BUMPS)[number];

/** One `.changeset/<name>.md` file. */
export interface Changeset {
  file: string;
  /** The bump of its first package, when it is a valid one. */
  bump: Bump | undefined;
  packages: string[];
  summary: string;
}

/** The changesets pending in `dir`'s `.changeset/` folder. */
export async function pendingChangesets(dir: string): Promise<Changeset[]> {
  const files = (await readdir(join(dir, '.changeset'))).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(join(dir, '.changeset', file), 'utf8');
      const [, front = '', body = ''] = text.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/) ?? [];
      // Package names are YAML keys: double-quoted, single-quoted or bare, as `changeset` accepts.
      const entries = [...front.matchAll(/^(["']?)([^"'\s:]+)\1:\s*(\w+)\s*$/gm)];
      const bump = entries[0]?.[3];
      return {
        file,
        bump: BUMPS.includes(bump as Bump) ? (bump as Bump) : undefined,
        packages: entries.map((entry) => entry[2] ?? ''),
        summary: body.trim(),
      };
    }),
  );
}

/** The largest bump among `changesets`: the one `changeset version` applies. */
export function largestBump(changesets: readonly Changeset[]): Bump | undefined {
  return BUMPS.filter((bump) => changesets.some((changeset) => changeset.bump === bump)).at(-1);
}

/** `version` bumped by `bump`, as semver counts. */
export function bumped(version: string, bump: Bump): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}
