/**
 * `npm run api:check` (scripts/api/): the public API of every entry point against the reports of
 * the last release in api/, judged by the pending changesets. The repository itself must pass;
 * a branch that removes an export (the change made to the compiled sources in memory) must fail
 * under a `minor` changeset and pass under a `major` one; additions need `minor`, never the
 * report touched.
 *
 * The sources are compiled once for the file, as `npm run api:check` compiles them; the branch is
 * a variant of that compilation, as scripts/api/extract.ts makes it.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkApi, commandOutput, committedReports, judgeApi } from '../../scripts/api/check.js';
import { compareReports, declarations, neededBump } from '../../scripts/api/compare.js';
import { type EntryPoint, entryPoints } from '../../scripts/api/entry-points.js';
import { CompiledSources } from '../../scripts/api/extract.js';
import { pendingChangesets } from '../../scripts/changesets.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** API Extractor compiles the declarations of every entry point: seconds, tens on a busy machine. */
const EXTRACT_TIMEOUT = 180_000;

let sources: CompiledSources;
let entries: EntryPoint[];

beforeAll(async () => {
  entries = await entryPoints(repo);
  sources = CompiledSources.compile(repo);
}, EXTRACT_TIMEOUT);

describe('npm run api:check', () => {
  it(
    'passes on this repository: its API is the reports’, or its changesets cover the difference',
    async () => {
      const { exitCode, stream, text } = commandOutput(await checkApi(repo, sources));
      expect(exitCode, text).toBe(0);
      expect(stream).toBe('stdout');
      expect(text).toMatch(/^api:check: the public API/);
    },
    EXTRACT_TIMEOUT,
  );

  it('reads the entry points from package.json, each with a report named after it in api/', async () => {
    const released = ['agentchat.api.md', 'agentchat-testing.api.md', 'agentchat-mcp.api.md'];
    expect(entries.map(({ report }) => report)).toEqual(expect.arrayContaining(released));
    // An entry point added since (agentchat/otel) has no report until the release that ships it,
    // and one removed keeps its report until then: api:check judges both.
    expect(await readdir(join(repo, 'api'))).toEqual(expect.arrayContaining(released));
  });
});

describe('api:check on a branch that removes an export', () => {
  /** The branch's own `.changeset/` folder, its only changeset written by each test. */
  let work: string;
  let before: Map<string, string>;
  let after: Map<string, string>;

  /** Leaves `bump` the only changeset pending on the branch, and judges the branch by it. */
  async function checkUnder(bump: string) {
    await writeFile(
      join(work, '.changeset', 'remove-path.md'),
      `---\n"agentchat": ${bump}\n---\n\n\`path\` is no longer exported.\n`,
    );
    return commandOutput(judgeApi(before, after, await pendingChangesets(work)));
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'agentchat-api-branch-'));
    await mkdir(join(work, '.changeset'));
    const source = await readFile(join(repo, 'src/index.ts'), 'utf8');
    const line = "export { path } from './core/path.js';\n";
    expect(source).toContain(line);
    before = await committedReports(repo, entries);
    after = await sources.reports(entries, new Map([['src/index.ts', source.replace(line, '')]]));
  }, EXTRACT_TIMEOUT);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('fails under a minor changeset, naming the export removed', async () => {
    const { exitCode, stream, text } = await checkUnder('minor');
    expect(exitCode).toBe(1);
    expect(stream).toBe('stderr');
    expect(text).toContain('needs a major changeset');
    expect(text).toContain("the pending changesets' largest bump is minor");
    expect(text).toMatch(/^ {2}agentchat: path removed\n {6}- export function path\(/m);
  });

  it('passes under a major changeset', async () => {
    const { exitCode, stream, text } = await checkUnder('major');
    expect(exitCode, text).toBe(0);
    expect(stream).toBe('stdout');
    expect(text).toContain('agentchat: path removed');
    expect(text).toContain("the pending changesets' largest bump is major, which covers it");
  });
});

describe('what a change of the report needs', () => {
  let report: string;
  const recorded = () => new Map([['agentchat', report]]);

  beforeAll(async () => {
    report = await readFile(join(repo, 'api/agentchat.api.md'), 'utf8');
  });

  it('reads a declaration per export, classes with their members', () => {
    const found = declarations(report);
    expect(found.get('Client')).toEqual(expect.arrayContaining(['export class Client {']));
    expect(found.has('VERSION')).toBe(true);
  });

  it('needs nothing when only the order of members or a missing TSDoc changed', () => {
    const shuffled = report
      .replace('    readonly status: 401;\n', '')
      .replace(
        'export class AuthenticationError extends APIError {\n',
        'export class AuthenticationError extends APIError {\n    readonly status: 401;\n',
      )
      .replace(/^ *\/\/ \(undocumented\)\n/gm, '');
    expect(shuffled).not.toBe(report);
    expect(compareReports(recorded(), new Map([['agentchat', shuffled]]))).toEqual([]);
  });

  it('needs minor for a new export, a new member, a new entry point or a deprecation', () => {
    const added = report.replace(
      '\n// @public\nexport class Client',
      '\n// @public\nexport function projectsOf(client: Client): string[];\n\n// @public\nexport class Client',
    );
    const member = report.replace(
      'export class AuthenticationError extends APIError {\n',
      'export class AuthenticationError extends APIError {\n    readonly realm: string | undefined;\n',
    );
    const deprecated = report.replace(
      '// @public\nexport class AuthenticationError',
      '// @public @deprecated\nexport class AuthenticationError',
    );
    for (const after of [added, member, deprecated]) {
      expect(after).not.toBe(report);
      const changes = compareReports(recorded(), new Map([['agentchat', after]]));
      expect(changes).toHaveLength(1);
      expect(neededBump(changes)).toBe('minor');
    }
    const otel = compareReports(recorded(), new Map([...recorded(), ['agentchat/otel', report]]));
    expect(otel).toEqual([
      { entry: 'agentchat/otel', kind: 'added', name: '(entry point)', lines: [] },
    ]);
    expect(neededBump(otel)).toBe('minor');
  });

  it('needs major for a changed member, a removed member or a removed entry point', () => {
    const narrowed = report.replace(
      '    readonly status: 401;\n',
      '    readonly status: 401 | 403;\n',
    );
    const removed = report.replace('    readonly status: 401;\n', '');
    for (const after of [narrowed, removed]) {
      expect(after).not.toBe(report);
      const changes = compareReports(recorded(), new Map([['agentchat', after]]));
      expect(changes.map(({ name, kind }) => [name, kind])).toEqual([
        ['AuthenticationError', 'changed'],
      ]);
      expect(neededBump(changes)).toBe('major');
    }
    expect(neededBump(compareReports(recorded(), new Map()))).toBe('major');
  });
});

/**
 * A report of the shape API Extractor writes, small and fixed, so that what the compiler is asked
 * does not move when a release rewrites api/. Its declarations are those of `agentchat/mcp` at
 * 1.2.0, cut down, with a function and a class beside them.
 */
const FIXTURE = `## API Report File for "agentchat"

> Do not edit this file. It is a report generated by [API Extractor](https://api-extractor.com/).

\`\`\`ts

// @public
export function createMcpHttpHandler<ReadOnly extends boolean = boolean, const Tools extends readonly ToolName[] = readonly ToolName[]>(options?: McpHttpHandlerOptions<ReadOnly, Tools>): McpHttpHandler;

// @public
export function createMcpServer(options: McpServerOptions): McpHttpHandler;

// @public
export interface McpHttpHandler {
    close: () => Promise<void>;
    fetch: (request: Request) => Promise<Response>;
}

// @public
export interface McpHttpHandlerOptions<ReadOnly extends boolean = boolean, Tools extends readonly ToolName[] = readonly ToolName[]> extends McpToolScope<ReadOnly, Tools> {
    allowedHosts?: readonly string[];
    audience?: string;
    resource?: string;
}

// @public
export type McpServerOptions = McpToolScope & {
    name: string;
};

// @public
export interface McpToolScope<ReadOnly extends boolean = boolean, Tools extends readonly ToolName[] = readonly ToolName[]> {
    readOnly?: ReadOnly;
    tools?: Tools;
}

// @public
export type PlainFields<E> = {
    readonly [K in keyof E as E[K] extends Function ? never : K]: E[K];
};

// @public
export function projectUrl(base: string, project?: string): string;

// @public
export class Projects {
    create(name: string | URL): Promise<string>;
}

// @public
export type ToolName = 'list_projects' | 'send_message';

\`\`\`
`;

describe('what the compiler makes of a changed declaration', () => {
  /** The changes from FIXTURE to FIXTURE with each of `edits`, and the bump they need. */
  function judged(...edits: [string, string][]) {
    let after = FIXTURE;
    for (const [from, to] of edits) {
      expect(after).toContain(from);
      after = after.replace(from, to);
    }
    const changes = compareReports(
      new Map([['agentchat/mcp', FIXTURE]]),
      new Map([['agentchat/mcp', after]]),
    );
    return {
      kinds: changes.map(({ name, kind }) => [name, kind]),
      reasons: changes.map(({ reason }) => reason ?? '').join('\n'),
      bump: neededBump(changes),
    };
  }

  it(
    'needs minor for optional members added through `extends` (issue 42’s McpScopeNames)',
    () => {
      const { kinds, reasons, bump } = judged(
        [
          'extends McpToolScope<ReadOnly, Tools> {\n    allowedHosts',
          'extends McpToolScope<ReadOnly, Tools>, McpScopeNames {\n    allowedHosts',
        ],
        [
          '// @public\nexport type McpServerOptions',
          '// @public\nexport interface McpScopeNames {\n    readScope?: string;\n    scopePrefix?: string;\n    writeScope?: string;\n}\n\n// @public\nexport type McpServerOptions',
        ],
      );
      expect(kinds).toEqual([
        ['McpHttpHandlerOptions', 'extended'],
        ['McpScopeNames', 'added'],
      ]);
      expect(reasons).toContain('what compiled against the old still compiles');
      expect(bump).toBe('minor');
    },
    EXTRACT_TIMEOUT,
  );

  it(
    'needs minor for an optional parameter added, optional members added through an intersection, or an option widened',
    () => {
      expect(
        judged([
          'export function createMcpServer(options: McpServerOptions)',
          'export function createMcpServer(options: McpServerOptions, signal?: AbortSignal)',
        ]),
      ).toMatchObject({ kinds: [['createMcpServer', 'extended']], bump: 'minor' });
      expect(
        judged(['    name: string;\n};', '    name: string;\n} & {\n    version?: string;\n};']),
      ).toMatchObject({ kinds: [['McpServerOptions', 'extended']], bump: 'minor' });
      // Old values are accepted, new ones would not fit the old type: the option is widened, and
      // it reaches users only as createMcpHttpHandler's argument, which takes every old call.
      const widened = judged([
        '    audience?: string;',
        '    audience?: string | readonly string[];',
      ]);
      expect(widened).toMatchObject({
        kinds: [['McpHttpHandlerOptions', 'extended']],
        bump: 'minor',
      });
      expect(widened.reasons).toMatch(
        /new → old fails.*reaches users only through createMcpHttpHandler/,
      );
    },
    EXTRACT_TIMEOUT,
  );

  it(
    'needs major for a required member added to an options interface, naming the direction that failed',
    () => {
      const { kinds, reasons, bump } = judged([
        '    resource?: string;',
        '    resource?: string;\n    realm: string;',
      ]);
      expect(kinds).toEqual([['McpHttpHandlerOptions', 'changed']]);
      expect(bump).toBe('major');
      expect(reasons).toContain('old → new fails');
      expect(reasons).toContain("Property 'realm' is missing");
      expect(reasons).toContain(
        'and so createMcpHttpHandler: the new function refuses arguments the old accepted',
      );
    },
    EXTRACT_TIMEOUT,
  );

  it(
    'needs major for a member removed, a parameter made required, a return type changed or a method parameter narrowed',
    () => {
      const removed = judged(['    resource?: string;\n', '']);
      expect(removed).toMatchObject({
        kinds: [['McpHttpHandlerOptions', 'changed']],
        bump: 'major',
      });
      expect(removed.reasons).toBe('resource removed');

      const required = judged(['project?: string): string;', 'project: string): string;']);
      expect(required).toMatchObject({ kinds: [['projectUrl', 'changed']], bump: 'major' });
      expect(required.reasons).toContain('the new function refuses arguments the old accepted');

      const returned = judged(['project?: string): string;', 'project?: string): URL;']);
      expect(returned).toMatchObject({ kinds: [['projectUrl', 'changed']], bump: 'major' });
      expect(returned.reasons).toContain(
        "the new function's result does not fit where the old one's went",
      );

      // TypeScript compares a method's parameters both ways; the probe must not.
      const method = judged(['create(name: string | URL)', 'create(name: string)']);
      expect(method).toMatchObject({ kinds: [['Projects', 'changed']], bump: 'major' });
      expect(method.reasons).toContain('new → old fails');
    },
    EXTRACT_TIMEOUT,
  );

  it(
    'keeps major, saying so, when the probe cannot decide',
    () => {
      // The new declaration does not compile: whatever its type became, the probe cannot tell.
      const broken = judged(['    audience?: string;', '    audience?: Array<string, number>;']);
      expect(broken).toMatchObject({
        kinds: [['McpHttpHandlerOptions', 'changed']],
        bump: 'major',
      });
      expect(broken.reasons).toMatch(
        /undecided, so taken as breaking: the new report's declaration of McpHttpHandlerOptions does not compile/,
      );
      // A key-remapping mapped type over a type parameter: TypeScript cannot relate it even to a
      // copy of itself, so its answer about the new one would mean nothing.
      const mapped = judged([
        'extends Function ? never',
        'extends (...args: never[]) => unknown ? never',
      ]);
      expect(mapped).toMatchObject({ kinds: [['PlainFields', 'changed']], bump: 'major' });
      expect(mapped.reasons).toContain(
        'TypeScript cannot relate PlainFields even to a copy of itself',
      );
    },
    EXTRACT_TIMEOUT,
  );
});
