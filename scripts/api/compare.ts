/**
 * What changed between two API reports of the package, and the bump that change needs.
 *
 * A report is API Extractor's `.api.md`: one block per declaration, blocks apart by a blank line.
 * Declarations are matched by name (overloads and merged declarations together), and their lines
 * compared as a set, so that a member moved within its class is no change:
 *
 * - a declaration, an entry point or a line of a declaration that is new is an addition: `minor`;
 * - one that is gone, or a line of a declaration that changed, is a removal or a narrowing:
 *   `major`. The report does not say whether a type is given by the user (where widening it is
 *   safe) or given back (where it is not), so every changed line is taken for the unsafe case.
 * - comment lines (`// @public`, `// @deprecated`) change documentation, never what compiles: a
 *   deprecation is `minor` at most.
 */
import type { Bump } from '../changesets.js';

/** One difference, named for the person who must judge it. */
export interface ApiChange {
  /** The entry point: `agentchat/testing`. */
  readonly entry: string;
  /** `added` and `extended` need `minor`; `removed` and `changed` need `major`. */
  readonly kind: 'added' | 'extended' | 'removed' | 'changed';
  /** The declaration's name, or `(entry point)` for a whole entry point. */
  readonly name: string;
  /** The lines that went (`- `) and came (`+ `). */
  readonly lines: readonly string[];
}

const ENTRY_POINT = '(entry point)';
const DECLARATION =
  /^(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|interface|type|function|const|let|var|enum|namespace|module)\s+([\w$]+)/;

/** A report's declarations by name, each a list of normalized lines. */
export function declarations(text: string): Map<string, string[]> {
  const report = text.replaceAll('\r\n', '\n');
  const start = report.indexOf('```ts\n');
  const end = report.lastIndexOf('\n```');
  const code = start === -1 || end <= start ? '' : report.slice(start + 6, end);
  const found = new Map<string, string[]>();
  for (const block of code.split(/\n\s*\n/)) {
    const lines = block
      .split('\n')
      .map((line) => line.trimEnd())
      // Whether a member has TSDoc is the reference test's concern, not the API's.
      .map((line) => line.replace(/^(\s*\/\/.*?) ?\(undocumented\)/, '$1').trimEnd())
      .filter((line) => line.trim() !== '' && line.trim() !== '//');
    const code = lines.filter((line) => !line.trimStart().startsWith('//'));
    // Imports of other packages' types, and notes about the report itself.
    if (code.length === 0 || code.every((line) => line.startsWith('import '))) continue;
    const name = code[0]?.match(DECLARATION)?.[1] ?? code[0]?.trim() ?? '';
    found.set(name, [...(found.get(name) ?? []), ...lines]);
  }
  return found;
}

const isComment = (line: string) => line.trimStart().startsWith('//');

/** The lines of `from` that `to` lacks, each counted as often as it appears. */
function missingFrom(from: readonly string[], to: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const line of to) left.set(line, (left.get(line) ?? 0) + 1);
  return from.filter((line) => {
    const count = left.get(line) ?? 0;
    if (count > 0) left.set(line, count - 1);
    return count === 0;
  });
}

/**
 * The changes from the reports `before` to `after`, each a map from entry point to report;
 * an entry point missing from one side is one added or removed.
 */
export function compareReports(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): ApiChange[] {
  const changes: ApiChange[] = [];
  for (const entry of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(entry);
    const now = after.get(entry);
    if (old === undefined || now === undefined) {
      changes.push({
        entry,
        kind: old === undefined ? 'added' : 'removed',
        name: ENTRY_POINT,
        lines: [],
      });
      continue;
    }
    const oldDeclarations = declarations(old);
    const newDeclarations = declarations(now);
    for (const name of new Set([...oldDeclarations.keys(), ...newDeclarations.keys()])) {
      const was = oldDeclarations.get(name);
      const is = newDeclarations.get(name);
      if (was === undefined || is === undefined) {
        const lines = (is ?? was ?? []).filter((line) => !isComment(line));
        const sign = is ? '+ ' : '- ';
        changes.push({
          entry,
          kind: is ? 'added' : 'removed',
          name,
          lines: lines.map((line) => sign + line),
        });
        continue;
      }
      const gone = missingFrom(was, is);
      const came = missingFrom(is, was);
      if (gone.length === 0 && came.length === 0) continue;
      changes.push({
        entry,
        kind: gone.some((line) => !isComment(line)) ? 'changed' : 'extended',
        name,
        lines: [...gone.map((line) => `- ${line}`), ...came.map((line) => `+ ${line}`)],
      });
    }
  }
  return changes;
}

/** The least bump that covers `changes`: none when there are none. */
export function neededBump(changes: readonly ApiChange[]): Bump | undefined {
  if (changes.some(({ kind }) => kind === 'removed' || kind === 'changed')) return 'major';
  return changes.length > 0 ? 'minor' : undefined;
}
