/**
 * What changed between two API reports of the package, and the bump that change needs.
 *
 * A report is API Extractor's `.api.md`: one block per declaration, blocks apart by a blank line.
 * Declarations are matched by name (overloads and merged declarations together), and their lines
 * compared as a set, so that a member moved within its class is no change:
 *
 * - a declaration or an entry point that is new is an addition: `minor`; one that is gone is a
 *   removal: `major`;
 * - a declaration whose lines changed is judged by the TypeScript compiler (scripts/api/probe.ts),
 *   old and new side by side: `minor` when what compiled against the old still compiles against
 *   the new, else `major`, with the direction that failed (see `judge` below);
 * - comment lines (`// @public`, `// @deprecated`) change documentation, never what compiles: a
 *   deprecation is `minor` at most.
 */
import { fileURLToPath } from 'node:url';
import type { Bump } from '../changesets.js';
import {
  codeBlock,
  type ProbeAnswer,
  type ProbeRequest,
  type Question,
  type ReportDeclaration,
  reportDeclarations,
  runProbes,
} from './probe.js';

/** One difference, named for the person who must judge it. */
export interface ApiChange {
  /** The entry point: `agentchat/testing`. */
  readonly entry: string;
  /**
   * `added` and `extended` (new lines, or lines the compiler found compatible) need `minor`;
   * `removed` and `changed` (a removal, a narrowing, or what the compiler could not decide) need
   * `major`.
   */
  readonly kind: 'added' | 'extended' | 'removed' | 'changed';
  /** The declaration's name, or `(entry point)` for a whole entry point. */
  readonly name: string;
  /** The lines that went (`- `) and came (`+ `). */
  readonly lines: readonly string[];
  /** For a declaration whose lines changed: what the compiler found, in a sentence. */
  readonly reason?: string;
}

/** The repository, whose node_modules the probes' imports of other packages resolve from. */
const REPO = fileURLToPath(new URL('../..', import.meta.url));

const ENTRY_POINT = '(entry point)';
const DECLARATION =
  /^(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|interface|type|function|const|let|var|enum|namespace|module)\s+([\w$]+)/;

/** A report's declarations by name, each a list of normalized lines. */
export function declarations(text: string): Map<string, string[]> {
  const code = codeBlock(text);
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

const MEMBER =
  /^\s+(?:(?:readonly|static|protected|abstract|get|set|declare|override)\s+)*([\w$]+|\[[^\]]+\])\??\s*[:(<]/;

/** The member a line of a class or interface declares (`status`, `[Symbol.iterator]`), if any. */
function memberName(line: string): string | undefined {
  return isComment(line) ? undefined : line.match(MEMBER)?.[1];
}

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
  root: string = REPO,
): ApiChange[] {
  const changes: ApiChange[] = [];
  /** Declarations whose code changed, for the compiler to judge: indexes into `changes`. */
  const changed: number[] = [];
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
      const lines = [...gone.map((line) => `- ${line}`), ...came.map((line) => `+ ${line}`)];
      const kept = new Set(came.map(memberName));
      const removed = [...new Set(gone.map(memberName))].filter(
        (member) => member !== undefined && !kept.has(member),
      );
      if (removed.length > 0) {
        // An optional member removed still type-checks structurally, but an object literal that
        // sets it no longer compiles: a removal is major whatever the compiler says of the rest.
        const reason = `${removed.join(', ')} removed`;
        changes.push({ entry, kind: 'changed', name, lines, reason });
        continue;
      }
      if ([...gone, ...came].some((line) => !isComment(line))) changed.push(changes.length);
      changes.push({
        entry,
        kind: 'extended',
        name,
        lines,
      });
    }
  }
  if (changed.length === 0) return changes;
  const verdicts = judge(
    root,
    before,
    after,
    changed.map((index) => changes[index] as ApiChange),
  );
  for (const [at, index] of changed.entries()) {
    const { compatible, reason } = verdicts[at] as Verdict;
    changes[index] = {
      ...(changes[index] as ApiChange),
      kind: compatible ? 'extended' : 'changed',
      reason,
    };
  }
  return changes;
}

interface Verdict {
  readonly compatible: boolean;
  readonly reason: string;
}

/** What a user relies on, by the declaration's kind: see `judge`. */
const QUESTIONS: Record<ReportDeclaration['kind'], readonly Question[]> = {
  type: ['old-to-new', 'new-to-old'],
  class: ['new-to-old', 'static', 'constructor'],
  function: ['arguments', 'result'],
  value: ['new-to-old'],
  // `typeof` would see its values only, not the types inside it.
  namespace: [],
};

const SAYS: Record<Question, string> = {
  'old-to-new': 'old → new fails (what users give, typed by the old, is refused by the new)',
  'new-to-old': 'new → old fails (what users get, or call, no longer fits the old)',
  static: "the new class's static side does not fit the old's",
  constructor: 'the new constructor refuses arguments the old accepted',
  arguments: 'the new function refuses arguments the old accepted',
  result: "the new function's result does not fit where the old one's went",
};

/**
 * Judges each of `declarations` (present in both reports, lines changed) by what users rely on:
 *
 * - a function or constant is called or read: the new must be assignable to the old, so every
 *   call that compiled still does (parameters are checked one way: an optional parameter added or
 *   a parameter widened passes; a parameter made required, or a return type changed, does not);
 * - a class is constructed, called and received: the new instance type and static side fit the
 *   old, and the new constructor takes the old's arguments;
 * - an interface or type alias may be given or received, so old and new must be assignable both
 *   ways (an optional member added passes; a required member added or a member removed does not).
 *   When only one way holds (a widened option, a required member added to a result), the change
 *   is still `minor` if the type reaches users only through functions and classes of the API
 *   (each chain of declarations mentioning it ends in one), and every one of those, judged as
 *   above, still takes the old calls: TypeScript then checks the direction each use needs.
 *
 * A probe that cannot decide (a declaration that does not compile) makes the change `major`.
 */
function judge(
  root: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  declarations: readonly ApiChange[],
): Verdict[] {
  const parse = (reports: ReadonlyMap<string, string>) =>
    new Map([...reports].map(([entry, report]) => [entry, reportDeclarations(codeBlock(report))]));
  const old = parse(before);
  const now = parse(after);
  const key = (entry: string, name: string) => `${entry}\0${name}`;
  /** The entry point declaring `name` as `entry` sees it: its own, else another's. */
  const home = (entry: string, name: string) =>
    now.get(entry)?.has(name) ? entry : [...now].find(([, found]) => found.has(name))?.[0];
  const referrers = new Map<string, string[]>();
  for (const [entry, found] of now) {
    for (const [name, declaration] of found) {
      for (const word of declaration.mentions) {
        const at = home(entry, word);
        if (at === undefined) continue;
        const list = referrers.get(key(at, word)) ?? [];
        list.push(key(entry, name));
        referrers.set(key(at, word), list);
      }
    }
  }
  /**
   * The functions and classes through which `name` reaches users, or `undefined` when a type on
   * the way is mentioned by nothing (users may use it any way they like).
   */
  const usersOf = (entry: string, name: string): string[] | undefined => {
    const users = new Set<string>();
    const seen = new Set<string>();
    const queue = [key(entry, name)];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      const [at = '', declared = ''] = next.split('\0');
      const kind = now.get(at)?.get(declared)?.kind;
      if (next !== key(entry, name) && kind !== 'type') {
        users.add(next);
        continue;
      }
      const by = referrers.get(next) ?? [];
      if (by.length === 0) return undefined;
      queue.push(...by);
    }
    // A use added by this change constrains nothing the last release promised.
    return [...users].filter((user) => {
      const [at = '', declared = ''] = user.split('\0');
      return old.get(at)?.has(declared) === true;
    });
  };

  const requests: ProbeRequest[] = [];
  const ask = (entry: string, name: string): number[] => {
    const kind = old.get(entry)?.get(name)?.kind ?? 'type';
    return QUESTIONS[kind].map((question) => requests.push({ entry, name, question }) - 1);
  };
  const plans = declarations.map(({ entry, name }) => {
    const own = ask(entry, name);
    const isType = old.get(entry)?.get(name)?.kind === 'type';
    const users = isType ? usersOf(entry, name) : undefined;
    const through = (users ?? []).map((user) => {
      const [at = '', declared = ''] = user.split('\0');
      return { name: declared, asked: ask(at, declared) };
    });
    return { own, users, through, isType };
  });
  let answers: ProbeAnswer[];
  try {
    answers = runProbes(root, before, after, requests);
  } catch (error) {
    // A compiler that fails decides nothing: every change it was asked about stays major.
    const why = `the probe failed: ${error instanceof Error ? error.message : String(error)}`;
    answers = requests.map(() => ({ holds: false, undecided: true, why }));
  }
  const answer = (index: number) => answers[index] as ProbeAnswer;
  const failures = (asked: readonly number[]) =>
    asked.flatMap((index) => {
      const found = answer(index);
      return found.holds
        ? []
        : [{ ...found, question: (requests[index] as ProbeRequest).question }];
    });
  const explain = (failed: ReturnType<typeof failures>) =>
    failed
      .map(({ question, why, undecided }) =>
        undecided ? `undecided, so taken as breaking: ${why}` : `${SAYS[question]}: ${why}`,
      )
      .join('\n');

  return plans.map(({ own, users, through, isType }) => {
    if (own.length === 0) {
      return {
        compatible: false,
        reason: 'undecided, so taken as breaking: a namespace is not probed',
      };
    }
    const failed = failures(own);
    if (failed.length === 0) {
      return { compatible: true, reason: 'what compiled against the old still compiles' };
    }
    // Only a type that fails one way, decidedly, may be saved by how the API uses it.
    if (!isType || failed.length !== 1 || failed[0]?.undecided !== false) {
      return { compatible: false, reason: explain(failed) };
    }
    if (users === undefined || users.length === 0) {
      return {
        compatible: false,
        reason: `${explain(failed)}\nand a type mentioned by no function or class reaches users on its own, in either direction`,
      };
    }
    const usersFailed = through.filter(({ asked }) => failures(asked).length > 0);
    if (usersFailed.length === 0) {
      const names = through.map(({ name }) => name).join(', ');
      return {
        compatible: true,
        reason: `only one way holds (${SAYS[failed[0]?.question ?? 'old-to-new']}), but it reaches users only through ${names}, ${through.length === 1 ? 'which still takes' : 'which all still take'} what compiled against the old`,
      };
    }
    return {
      compatible: false,
      reason: [
        explain(failed),
        ...usersFailed.map(({ name, asked }) => `and so ${name}: ${explain(failures(asked))}`),
      ].join('\n'),
    };
  });
}

/** The least bump that covers `changes`: none when there are none. */
export function neededBump(changes: readonly ApiChange[]): Bump | undefined {
  if (changes.some(({ kind }) => kind === 'removed' || kind === 'changed')) return 'major';
  return changes.length > 0 ? 'minor' : undefined;
}
