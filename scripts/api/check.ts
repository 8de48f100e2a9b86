/**
 * `npm run api:check`: the public API of every entry point of package.json's `exports`, compared
 * with the committed reports in `api/` (API Extractor's `.api.md`, one per entry point), which
 * record the API of the last release. A difference passes only with pending changesets whose
 * largest bump covers it: `minor` for an addition, `major` for a removal or a narrowing
 * (scripts/api/compare.ts says how each is told). `npm run api:update` rewrites the reports;
 * `npm run version` runs it, so a release's "Version Packages" pull request carries them.
 *
 * Why API Extractor's report rather than the last release's type tests compiled against the new
 * build (openai-node's way): the report lists every export, so an addition is seen as well as a
 * removal, and a reviewer reads what changed as a diff of declarations; type tests see only what
 * they happen to use, and cannot tell a `minor` from a `patch`.
 *
 *   npx tsx scripts/api/check.ts            # compare; exit 1, naming each change, when not covered
 *   npx tsx scripts/api/check.ts --update   # write api/*.api.md from the sources as they are
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUMPS, type Bump, type Changeset, largestBump, pendingChangesets } from '../changesets.js';
import { type ApiChange, compareReports, neededBump } from './compare.js';
import { type EntryPoint, entryPoints } from './entry-points.js';
import { type CompiledSources, extractReports } from './extract.js';

/** Where the reports are kept, relative to the repository. */
export const REPORTS = 'api';

/** The committed reports, by entry point; an entry point without one is absent. */
export async function committedReports(
  root: string,
  entries: readonly EntryPoint[],
): Promise<Map<string, string>> {
  const reports = new Map<string, string>();
  const files = existsSync(join(root, REPORTS)) ? await readdir(join(root, REPORTS)) : [];
  for (const file of files.filter((name) => name.endsWith('.api.md'))) {
    const text = await readFile(join(root, REPORTS, file), 'utf8');
    // A report of an entry point package.json no longer lists is named after its file.
    const entry =
      entries.find(({ report }) => report === file)?.name ?? file.replace(/\.api\.md$/, '');
    reports.set(entry, text);
  }
  return reports;
}

/** Writes the reports of `root`'s entry points into `api/`, and deletes those of no entry point. */
export async function updateReports(root: string): Promise<void> {
  const entries = await entryPoints(root);
  const reports = await extractReports(root, entries);
  const dir = join(root, REPORTS);
  await mkdir(dir, { recursive: true });
  for (const file of await readdir(dir)) {
    if (file.endsWith('.api.md') && !entries.some(({ report }) => report === file)) {
      await rm(join(dir, file));
    }
  }
  for (const entry of entries) {
    await writeFile(join(dir, entry.report), reports.get(entry.name) ?? '');
  }
}

/** The outcome of a check: what changed, the bump it needs and the bump pending. */
export interface ApiCheck {
  readonly changes: readonly ApiChange[];
  readonly needed: Bump | undefined;
  readonly pending: Bump | undefined;
  readonly passed: boolean;
}

/**
 * Judges the reports `after` against the committed ones, `before`: what changed, the bump that
 * needs, and whether the largest bump of `changesets` covers it.
 */
export function judgeApi(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  changesets: readonly Changeset[],
): ApiCheck {
  const changes = compareReports(before, after);
  const needed = neededBump(changes);
  const pending = largestBump(changesets);
  const covered =
    needed === undefined ||
    (pending !== undefined && BUMPS.indexOf(pending) >= BUMPS.indexOf(needed));
  return { changes, needed, pending, passed: covered };
}

/**
 * Compares `root`'s API with its reports, and its pending changesets with what changed; `sources`
 * are its sources compiled already, when the caller has them.
 */
export async function checkApi(root: string, sources?: CompiledSources): Promise<ApiCheck> {
  const entries = await entryPoints(root);
  const [before, after, changesets] = await Promise.all([
    committedReports(root, entries),
    sources ? sources.reports(entries) : extractReports(root, entries),
    pendingChangesets(root),
  ]);
  return judgeApi(before, after, changesets);
}

const KIND = {
  added: 'added',
  extended: 'extended or changed compatibly',
  removed: 'removed',
  changed: 'changed (a removal or narrowing)',
} as const;

/** The check's outcome, for a person: each change, what it needs, and what to do. */
export function explain({ changes, needed, pending, passed }: ApiCheck): string {
  if (changes.length === 0) return `api:check: the public API is the one ${REPORTS}/ records.`;
  const listed = changes
    .map(({ entry, kind, name, lines, reason }) =>
      [
        `  ${entry}: ${name} ${KIND[kind]}`,
        ...lines.map((line) => `      ${line}`),
        ...(reason === undefined ? [] : reason.split('\n').map((line) => `    ${line}`)),
      ].join('\n'),
    )
    .join('\n');
  const pendingText =
    pending === undefined
      ? 'no changeset is pending'
      : `the pending changesets' largest bump is ${pending}`;
  if (passed) {
    return `api:check: the public API differs from ${REPORTS}/ (the last release's), and ${pendingText}, which covers it:\n${listed}`;
  }
  return [
    `api:check: the public API differs from ${REPORTS}/ (the last release's), which needs a ${needed} changeset, but ${pendingText}:`,
    listed,
    '',
    needed === 'major'
      ? 'Restore what was removed or narrowed (keep the old name as a deprecated alias: CONTRIBUTING.md), or add a changeset with "agentchat": major saying what users must change (npx changeset).'
      : 'Add a changeset with "agentchat": minor saying what users can now do (npx changeset).',
    `The reports are rewritten by npm run version at a release, not by hand.`,
  ].join('\n');
}

/** What `npm run api:check` prints of `check`, where, and the exit code it ends with. */
export function commandOutput(check: ApiCheck): {
  readonly text: string;
  readonly stream: 'stdout' | 'stderr';
  readonly exitCode: 0 | 1;
} {
  return check.passed
    ? { text: explain(check), stream: 'stdout', exitCode: 0 }
    : { text: explain(check), stream: 'stderr', exitCode: 1 };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const started = performance.now();
  if (process.argv.includes('--update')) {
    await updateReports(root);
    console.log(`api:update: wrote ${REPORTS}/*.api.md`);
  } else {
    const { text, stream, exitCode } = commandOutput(await checkApi(root));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process[stream].write(`${text} (${seconds} s)\n`);
    process.exitCode = exitCode;
  }
}
