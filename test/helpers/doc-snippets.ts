/**
 * Type-checks code samples from the docs and the TSDoc, so that an example a user copies compiles
 * against the current API. Each sample becomes one module in a scratch folder inside the repo (so
 * tsconfig `paths` map `agentchat` to src/), compiled with the repo's compiler options.
 *
 * Samples may assume what a reader assumes: a `client` (a `Client`), a `mock` (a `MockService`)
 * and a `server` (a `MockServer`) already exist, and names exported by `agentchat`,
 * `agentchat/testing`, `vitest` and `msw` are imported when a sample uses them without importing.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const repo = new URL('../..', import.meta.url).pathname;

/** One code sample and where it came from, for messages. */
export interface Snippet {
  /** Such as `docs/errors.md:42` or `Client.constructor`. */
  readonly origin: string;
  readonly code: string;
  /**
   * The versions of an optional peer the sample needs, when its text says it needs more than
   * the peer's whole range (`AI SDK 7 also takes ...`): its {@link NEEDS_MARKER}.
   */
  readonly needs?: { readonly name: string; readonly range: string };
}

/** Put this on the line before a fence to leave a TypeScript sample out of the check. */
export const SKIP_MARKER = '<!-- not-checked -->';

/**
 * Put `<!-- needs ai@^7.0.0 -->` on the line before a fence whose sample needs those versions of a
 * peer, as its text says: where an older one is installed (`npm run test:lowest`), the sample
 * must fail to compile rather than pass (test/docs/guides.test.ts).
 */
export const NEEDS_MARKER = /^<!-- needs (@?[^@\s]+)@(\S+) -->$/;

/** The ```ts and ```typescript blocks of a Markdown text. */
export function fencedTypeScript(markdown: string, origin: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i]?.match(/^(\s*)```(ts|typescript)\s*$/);
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end] ?? '')) end++;
    const before = lines[i - 1]?.trim() ?? '';
    if (before !== SKIP_MARKER) {
      const code = lines
        .slice(start, end)
        .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
        .join('\n');
      const needs = before.match(NEEDS_MARKER);
      snippets.push({
        origin: `${origin}:${start + 1}`,
        code,
        ...(needs ? { needs: { name: needs[1] ?? '', range: needs[2] ?? '' } } : {}),
      });
    }
    i = end;
  }
  return snippets;
}

/** Names each module exports, split into values and types, read from its entry point. */
async function exportsOf(file: string): Promise<{ values: string[]; types: string[] }> {
  const source = await readFile(join(repo, file), 'utf8');
  const values: string[] = [];
  const types: string[] = [];
  for (const block of source.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    const typeOnly = Boolean(block[1]);
    for (const raw of (block[2] ?? '').split(',')) {
      const entry = raw.trim();
      if (!entry) continue;
      const isType = typeOnly || entry.startsWith('type ');
      const name =
        entry
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop() ?? '';
      (isType ? types : values).push(name);
    }
  }
  return { values, types };
}

async function knownImports(): Promise<Map<string, { from: string; type: boolean }>> {
  const known = new Map<string, { from: string; type: boolean }>();
  const add = (from: string, names: { values: string[]; types: string[] }) => {
    for (const name of names.values) known.set(name, { from, type: false });
    for (const name of names.types) known.set(name, { from, type: true });
  };
  add('agentchat', await exportsOf('src/index.ts'));
  add('agentchat/testing', await exportsOf('src/testing/index.ts'));
  add('vitest', {
    values: [
      'describe',
      'it',
      'test',
      'expect',
      'vi',
      'beforeAll',
      'afterAll',
      'beforeEach',
      'afterEach',
    ],
    types: [],
  });
  add('msw/node', { values: ['setupServer'], types: [] });
  add('msw/browser', { values: ['setupWorker'], types: [] });
  return known;
}

const GLOBALS = `import type { Client } from 'agentchat';
import type { MockServer, MockService } from 'agentchat/testing';

declare global {
  /** The client most samples call. */
  const client: Client;
  /** The mock service of testing samples. */
  const mock: MockService;
  /** A running mock server. */
  const server: MockServer;
}
`;

/** Import lines for the names a sample uses but neither imports nor declares. */
function missingImports(
  code: string,
  known: Map<string, { from: string; type: boolean }>,
): string[] {
  const byModule = new Map<string, string[]>();
  for (const [name, { from, type }] of known) {
    const used = new RegExp(`(?<![.\\w$])${name}(?![\\w$])`).test(code);
    const declared =
      new RegExp(`import[^;]*[{\\s,]${name}[\\s,}]`).test(code) ||
      new RegExp(`(?:const|let|var|function|class|interface|type|enum)\\s+${name}\\b`).test(code);
    if (!used || declared) continue;
    byModule.set(from, [...(byModule.get(from) ?? []), type ? `type ${name}` : name]);
  }
  return [...byModule].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`);
}

/**
 * Compiles every snippet; returns one line per compiler error, naming the snippet's origin and
 * its line, or nothing when all compile.
 */
export async function typecheckSnippets(snippets: readonly Snippet[]): Promise<string[]> {
  await mkdir(join(repo, '.tmp'), { recursive: true });
  const dir = await mkdtemp(join(repo, '.tmp', 'snippets-'));
  try {
    const known = await knownImports();
    const files = new Map<string, { snippet: Snippet; offset: number }>();
    await writeFile(join(dir, 'globals.d.ts'), GLOBALS);
    for (const [index, snippet] of snippets.entries()) {
      const header = missingImports(snippet.code, known);
      const file = join(dir, `snippet-${index}.ts`);
      // `export {}` makes every sample a module, where top-level await is allowed.
      await writeFile(file, `${[...header, snippet.code].join('\n')}\nexport {};\n`);
      files.set(file, { snippet, offset: header.length });
    }

    const config = ts.getParsedCommandLineOfConfigFile(join(repo, 'tsconfig.json'), undefined, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    });
    if (!config) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram({
      rootNames: [...files.keys(), join(dir, 'globals.d.ts')],
      options: { ...config.options, noEmit: true },
    });

    const problems: string[] = [];
    for (const [file, { snippet, offset }] of files) {
      const sourceFile = program.getSourceFile(file);
      if (!sourceFile) throw new Error(`${relative(repo, file)} was not compiled`);
      const diagnostics = [
        ...program.getSyntacticDiagnostics(sourceFile),
        ...program.getSemanticDiagnostics(sourceFile),
      ];
      for (const diagnostic of diagnostics) {
        const line =
          diagnostic.start === undefined
            ? 0
            : sourceFile.getLineAndCharacterOfPosition(diagnostic.start).line - offset + 1;
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        problems.push(`${snippet.origin} (sample line ${line}): TS${diagnostic.code} ${message}`);
      }
    }
    return problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
