/**
 * Judges a changed declaration by compiling it, not by its text: the old and the new report of
 * every entry point become declaration files of one TypeScript program, side by side, and each
 * question ("is the old type assignable to the new?") is a type alias whose constraint TypeScript
 * checks, so its error, if any, says why not.
 *
 * The declarations come from the reports' code blocks: the committed report is the only record of
 * the last release's API in the repository (no tag, no build of it), and it is what a reviewer
 * reads. Three things make the blocks compile as the release's declarations would:
 *
 * - a name a report uses but another entry point's report declares (`Client` in `agentchat/mcp`)
 *   is imported from that report, on the same side;
 * - a name no report declares (a type the package does not export) is the same opaque stand-in on
 *   both sides: a change inside it is invisible, as it is to the report, but a change from it to
 *   anything else is not;
 * - a method is rewritten as a property of function type, because TypeScript compares a method's
 *   parameters both ways (bivariance), which would let a narrowed parameter pass.
 *
 * A probe that does not compile for another reason (an error left in a report's declarations,
 * a generic that cannot be instantiated) decides nothing: the caller keeps such a change `major`.
 */
import { join } from 'node:path';
import ts from 'typescript';

/** What a probe asks, in the direction a user depends on. */
export type Question =
  /** Values of the old type are accepted by the new: what users give still compiles. */
  | 'old-to-new'
  /** Values of the new type fit the old: what users get still fits where it went. */
  | 'new-to-old'
  /** The new class's static side fits the old's. */
  | 'static'
  /** The old constructor's arguments are accepted by the new constructor. */
  | 'constructor'
  /** The old function's arguments are accepted by the new function. */
  | 'arguments'
  /** The new function's result fits where the old one's went. */
  | 'result';

/** A declaration's kind, as far as the probes care. */
export type DeclarationKind = 'type' | 'class' | 'function' | 'value' | 'namespace';

/** One top-level declaration of a report. */
export interface ReportDeclaration {
  readonly kind: DeclarationKind;
  /** `<A extends B>` rebuilt as fresh parameters (no defaults), or '' when not generic. */
  readonly parameters: string;
  /** The parameters' names, `<A>`, or ''. */
  readonly arguments: string;
  /** More than one constructor signature: `ConstructorParameters` would see only the last. */
  readonly overloadedConstructor: boolean;
  /** Names of other declarations this one's text mentions. */
  readonly mentions: ReadonlySet<string>;
}

/** A report's code block: the declarations between its ```ts fence and the closing one. */
export function codeBlock(report: string): string {
  const text = report.replaceAll('\r\n', '\n');
  const start = text.indexOf('```ts\n');
  const end = text.lastIndexOf('\n```');
  return start === -1 || end <= start ? '' : text.slice(start + 6, end);
}

const KEYWORDS: Record<string, DeclarationKind> = {
  InterfaceDeclaration: 'type',
  TypeAliasDeclaration: 'type',
  ClassDeclaration: 'class',
  FunctionDeclaration: 'value',
  VariableStatement: 'value',
  EnumDeclaration: 'value',
  ModuleDeclaration: 'namespace',
};

function nameOf(statement: ts.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const [first] = statement.declarationList.declarations;
    return first && ts.isIdentifier(first.name) ? first.name.text : undefined;
  }
  const name = (statement as { name?: ts.Node }).name;
  return name && ts.isIdentifier(name) ? name.text : undefined;
}

function parse(code: string): ts.SourceFile {
  return ts.createSourceFile('report.d.ts', code, ts.ScriptTarget.Latest, true);
}

/** The top-level declarations of a report's code, by name (merged declarations together). */
export function reportDeclarations(code: string): Map<string, ReportDeclaration> {
  const file = parse(code);
  const texts = new Map<string, { kinds: DeclarationKind[]; statements: ts.Statement[] }>();
  for (const statement of file.statements) {
    const kind = KEYWORDS[ts.SyntaxKind[statement.kind]];
    const name = nameOf(statement);
    if (kind === undefined || name === undefined) continue;
    const entry = texts.get(name) ?? { kinds: [], statements: [] };
    entry.kinds.push(kind);
    entry.statements.push(statement);
    texts.set(name, entry);
  }
  const found = new Map<string, ReportDeclaration>();
  for (const [name, { kinds, statements }] of texts) {
    const generic = statements.find(
      (statement) =>
        (ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          (ts.isFunctionDeclaration(statement) && statements.length === 1)) &&
        statement.typeParameters !== undefined,
    ) as
      | ts.InterfaceDeclaration
      | ts.TypeAliasDeclaration
      | ts.ClassDeclaration
      | ts.FunctionDeclaration
      | undefined;
    const parameters = generic?.typeParameters ?? [];
    const words = new Set(statements.flatMap((statement) => statement.getText().match(WORD) ?? []));
    words.delete(name);
    const constructors = statements.flatMap((statement) =>
      ts.isClassDeclaration(statement) ? statement.members.filter(ts.isConstructorDeclaration) : [],
    );
    found.set(name, {
      kind: kinds.includes('class')
        ? 'class'
        : statements.length === 1 && ts.isFunctionDeclaration(statements[0] as ts.Statement)
          ? 'function'
          : kinds.includes('namespace')
            ? 'namespace'
            : kinds.includes('value')
              ? 'value'
              : 'type',
      parameters:
        parameters.length === 0
          ? ''
          : `<${parameters
              .map((parameter) =>
                parameter.constraint
                  ? `${parameter.name.text} extends ${parameter.constraint.getText()}`
                  : parameter.name.text,
              )
              .join(', ')}>`,
      arguments:
        parameters.length === 0
          ? ''
          : `<${parameters.map((parameter) => parameter.name.text).join(', ')}>`,
      overloadedConstructor: constructors.length > 1,
      mentions: words,
    });
  }
  for (const declaration of found.values()) {
    for (const word of declaration.mentions) {
      if (!found.has(word)) (declaration.mentions as Set<string>).delete(word);
    }
  }
  return found;
}

const WORD = /[A-Za-z_$][\w$]*/g;

/**
 * `code` with every method (of a class, an interface or an object type) written as a property of
 * function type, overloads as one property with several call signatures: TypeScript then checks
 * their parameters one way only, as it does a function's.
 */
export function methodsAsProperties(code: string): string {
  const file = parse(code);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isClassDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeLiteralNode(node)
    ) {
      const groups = new Map<string, (ts.MethodDeclaration | ts.MethodSignature)[]>();
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) && !ts.isMethodSignature(member)) continue;
        const isStatic = ts.canHaveModifiers(member)
          ? (ts.getModifiers(member) ?? []).some(({ kind }) => kind === ts.SyntaxKind.StaticKeyword)
          : false;
        // A static method may use `this` as its class; bivariance on the static side is a limit.
        if (isStatic) continue;
        const key = member.name.getText();
        groups.set(key, [...(groups.get(key) ?? []), member]);
      }
      for (const members of groups.values()) {
        const [first] = members;
        if (first === undefined) continue;
        const modifiers = ts.canHaveModifiers(first)
          ? (ts.getModifiers(first) ?? []).map((modifier) => `${modifier.getText()} `).join('')
          : '';
        // Arrow types, not a type literal's call signatures: `this` stays the class's or interface's.
        const signatures = members.map(
          (member) =>
            `(${member.typeParameters ? `<${member.typeParameters.map((p) => p.getText()).join(', ')}>` : ''}` +
            `(${member.parameters.map((p) => p.getText()).join(', ')}) => ${member.type?.getText() ?? 'any'})`,
        );
        const text = `${modifiers}${first.name.getText()}${first.questionToken ? '?' : ''}: ${signatures.join(' & ')};`;
        for (const [index, member] of members.entries()) {
          edits.push({
            start: member.getStart(),
            end: member.getEnd(),
            text: index === 0 ? text : '',
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let result = code;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) {
    result = result.slice(0, start) + text + result.slice(end);
  }
  return result;
}

/** The directory the probe's files seem to live in: under the repository, so that imports of
 * other packages (`msw`, the MCP SDK) resolve from its node_modules. Nothing is written there. */
const PROBE_DIR = '.api-probe';

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  strict: true,
  // The probes are declaration files: skipLibCheck would skip them. Only their diagnostics are read.
  skipLibCheck: false,
  noEmit: true,
};

/** Diagnostics that mean a name is declared nowhere the report can see. */
const UNRESOLVED = new Set([2304, 2552, 2503]);

/** The libraries' and packages' parsed files, kept between runs (the tests run several). */
const cache = new Map<string, ts.SourceFile | undefined>();

const slug = (entry: string) => entry.replaceAll('/', '-');

/** One assignability question about `entry`'s declaration `name`. */
export interface ProbeRequest {
  readonly entry: string;
  readonly name: string;
  readonly question: Question;
}

/** A probe's answer: `undefined` when it holds, else why not (TypeScript's words). */
export type ProbeAnswer =
  | { readonly holds: true }
  | { readonly holds: false; readonly why: string; readonly undecided: boolean };

/** The last release's reports, the sources', and a second copy of the last release's. */
type Side = 'old' | 'new' | 'copy';
const SIDES = ['old', 'new', 'copy'] as const;

interface SideFile {
  readonly path: string;
  readonly code: string;
  readonly declarations: Map<string, ReportDeclaration>;
  /** Where the report's own code ends in the file's text; probes come after it. */
  reportEnd: number;
}

/** TypeScript's message, short: four lines at most, each side's file named `old.`/`new.`. */
const fence = (text: string) =>
  text
    .replace(
      /import\("[^"]*\/(old|new|copy)\/[^"]*"(?:, \{ with: \{ "resolution-mode": "import" \} \})?\)\./g,
      '$1.',
    )
    .split('\n')
    .slice(0, 4)
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}...` : line))
    .join('\n');

/** The text of a probe: `From` must be assignable to `To`, checked as a type parameter's constraint. */
function probeText(
  request: ProbeRequest,
  declaration: ReportDeclaration,
  index: number,
  against: '__apiNew' | '__apiCopy',
): string {
  const { name, question } = request;
  const { parameters, arguments: args } = declaration;
  const [from, to] = ((): [string, string] => {
    switch (question) {
      case 'old-to-new':
        return [`${name}${args}`, `${against}.${name}${args}`];
      case 'new-to-old':
        return declaration.kind === 'value'
          ? [`typeof ${against}.${name}`, `typeof ${name}`]
          : [`${against}.${name}${args}`, `${name}${args}`];
      case 'static':
        return [`typeof ${against}.${name}`, `typeof ${name}`];
      case 'arguments':
        return [
          `Parameters<typeof ${name}${args}>`,
          `Parameters<typeof ${against}.${name}${args}>`,
        ];
      case 'result':
        return [
          `ReturnType<typeof ${against}.${name}${args}>`,
          `ReturnType<typeof ${name}${args}>`,
        ];
      case 'constructor':
        return [
          `ConstructorParameters<typeof ${name}>`,
          `ConstructorParameters<typeof ${against}.${name}>`,
        ];
    }
  })();
  // Fresh type parameters, constrained as the old declaration's: the probe holds for every
  // instantiation, not only the defaults.
  const generic =
    question === 'old-to-new' ||
    question === 'arguments' ||
    question === 'result' ||
    (question === 'new-to-old' && declaration.kind !== 'value');
  return `type __apiProbe${index}${generic ? parameters : ''} = __ApiAssignable<${from}, ${to}>;`;
}

/**
 * Answers each of `requests` about the reports `before` (the last release's) and `after` (the
 * sources'), by entry point, with one TypeScript program.
 */
export function runProbes(
  root: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  requests: readonly ProbeRequest[],
): ProbeAnswer[] {
  const dir = join(root, PROBE_DIR);
  const sides: Record<Side, Map<string, SideFile>> = {
    old: new Map(),
    new: new Map(),
    copy: new Map(),
  };
  for (const [side, reports] of [
    ['old', before],
    ['new', after],
    ['copy', before],
  ] as const) {
    for (const [entry, report] of reports) {
      const code = codeBlock(report);
      sides[side].set(entry, {
        path: join(dir, side, `${slug(entry)}.d.ts`),
        code: methodsAsProperties(code),
        declarations: reportDeclarations(code),
        reportEnd: 0,
      });
    }
  }

  /** The imports that let a report see the names other entry points declare. */
  const imports = (side: Side, entry: string, file: SideFile): string => {
    const words = new Set(file.code.match(WORD) ?? []);
    const lines: string[] = [];
    const taken = new Set(file.declarations.keys());
    for (const [other, otherFile] of sides[side]) {
      if (other === entry) continue;
      const names = [...otherFile.declarations.keys()].filter(
        (name) => words.has(name) && !taken.has(name),
      );
      for (const name of names) taken.add(name);
      if (names.length > 0)
        lines.push(`import type { ${names.join(', ')} } from './${slug(other)}.js';`);
    }
    return lines.join('\n');
  };

  const files = new Map<string, string>();
  const standInsPath = join(dir, 'stand-ins.d.ts');
  const compose = (standIns: Map<string, Set<string>>, withProbes: boolean) => {
    files.clear();
    const allStandIns = new Set([...standIns.values()].flatMap((names) => [...names]));
    files.set(
      standInsPath,
      [
        'declare const standIn: unique symbol;',
        'interface StandInPart<Of extends string> { readonly [standIn]: Of; readonly [key: string]: StandInPart<Of> }',
        // A type and a value of one name, for `typeof name` as well as `name`.
        ...[...allStandIns].flatMap((name) => [
          `export interface ${name} { readonly [standIn]: '${name}'; readonly [key: string]: StandInPart<'${name}'> }`,
          `export declare const ${name}: StandInPart<'${name}'>;`,
        ]),
        'export {};',
      ].join('\n'),
    );
    for (const side of SIDES) {
      for (const [entry, file] of sides[side]) {
        const missing = [...(standIns.get(file.path) ?? [])];
        const head = [
          imports(side, entry, file),
          missing.length > 0 ? `import type { ${missing.join(', ')} } from '../stand-ins.js';` : '',
        ].join('\n');
        // The report's code first, at the file's start, so that its positions are the report's.
        const text = `${file.code}\n${head}\n`;
        file.reportEnd = file.code.length;
        files.set(file.path, text);
      }
    }
    if (!withProbes) return;
    for (const [index, request] of requests.entries()) {
      const file = sides.old.get(request.entry);
      const declaration = file?.declarations.get(request.name);
      if (!file || !declaration) continue;
      const text = files.get(file.path) ?? '';
      const header = text.includes('__ApiAssignable')
        ? ''
        : [
            `import type * as __apiNew from '../new/${slug(request.entry)}.js';`,
            `import type * as __apiCopy from '../copy/${slug(request.entry)}.js';`,
            'type __ApiAssignable<From extends To, To> = From;',
            '',
          ].join('\n');
      // A generic probe is asked of the old declaration against a copy of itself too: when
      // TypeScript cannot relate even those (a mapped type with `as` over a type parameter), the
      // probe's answer about the new one means nothing.
      const self = declaration.parameters
        ? `${probeText(request, declaration, requests.length + index, '__apiCopy')}\n`
        : '';
      files.set(
        file.path,
        `${text}${header}${probeText(request, declaration, index, '__apiNew')}\n${self}`,
      );
    }
  };

  const host = ts.createCompilerHost(OPTIONS, true);
  const realGetSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const text = files.get(fileName);
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    if (!cache.has(fileName))
      cache.set(fileName, realGetSourceFile(fileName, languageVersion, onError));
    return cache.get(fileName);
  };
  const realFileExists = host.fileExists.bind(host);
  const realReadFile = host.readFile.bind(host);
  const realDirectoryExists = host.directoryExists?.bind(host);
  host.fileExists = (fileName) => files.has(fileName) || realFileExists(fileName);
  host.readFile = (fileName) => files.get(fileName) ?? realReadFile(fileName);
  host.directoryExists = (name) =>
    name === dir || name.startsWith(`${dir}/`) || (realDirectoryExists?.(name) ?? true);
  const program = (previous?: ts.Program) =>
    ts.createProgram({
      rootNames: [...files.keys()],
      options: OPTIONS,
      host,
      ...(previous ? { oldProgram: previous } : {}),
    });

  // First, which names no report declares: each gets a stand-in, the same on both sides.
  compose(new Map(), false);
  const first = program();
  const standIns = new Map<string, Set<string>>();
  for (const side of SIDES) {
    for (const file of sides[side].values()) {
      const source = first.getSourceFile(file.path);
      if (!source) continue;
      for (const diagnostic of first.getSemanticDiagnostics(source)) {
        if (!UNRESOLVED.has(diagnostic.code) || diagnostic.start === undefined) continue;
        const name = source.text.slice(
          diagnostic.start,
          diagnostic.start + (diagnostic.length ?? 0),
        );
        if (/^[A-Za-z_$][\w$]*$/.test(name)) {
          standIns.set(file.path, (standIns.get(file.path) ?? new Set()).add(name));
        }
      }
    }
  }

  compose(standIns, true);
  const second = program(first);
  /** Declarations whose own text does not compile, by side: their types may be `any`. */
  const broken: Record<Side, Map<string, string>> = {
    old: new Map(),
    new: new Map(),
    copy: new Map(),
  };
  const failed = new Map<number, string>();
  for (const side of SIDES) {
    for (const file of sides[side].values()) {
      const source = second.getSourceFile(file.path);
      if (!source) continue;
      const probeLines = new Map<number, number>();
      source.text.split('\n').forEach((line, number) => {
        const match = line.match(/^type __apiProbe(\d+)\b/);
        if (match) probeLines.set(number, Number(match[1]));
      });
      for (const diagnostic of second.getSemanticDiagnostics(source)) {
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        const start = diagnostic.start ?? 0;
        const probe = probeLines.get(source.getLineAndCharacterOfPosition(start).line);
        if (probe !== undefined) {
          failed.set(probe, failed.has(probe) ? `${failed.get(probe)}\n${message}` : message);
          continue;
        }
        const statement = source.statements.find((node) => node.pos <= start && start < node.end);
        const name = statement && start < file.reportEnd ? nameOf(statement) : undefined;
        broken[side].set(name ?? '(the report)', fence(message));
      }
    }
  }

  /** The broken declaration `name` depends on, on `side`, if any. */
  const brokenUnder = (side: Side, entry: string, name: string): string | undefined => {
    if (broken[side].has('(the report)')) return '(the report)';
    const seen = new Set<string>();
    const queue = [name];
    while (queue.length > 0) {
      const next = queue.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      if (broken[side].has(next)) return next;
      for (const file of [sides[side].get(entry), ...sides[side].values()]) {
        const declaration = file?.declarations.get(next);
        if (declaration) {
          queue.push(...declaration.mentions);
          break;
        }
      }
    }
    return undefined;
  };

  return requests.map((request, index) => {
    for (const side of SIDES) {
      const at = brokenUnder(side, request.entry, request.name);
      if (at !== undefined) {
        return {
          holds: false,
          undecided: true,
          why: `the ${side} report's declaration of ${at} does not compile, so the probe decides nothing: ${broken[side].get(at)}`,
        };
      }
    }
    if (!sides.old.get(request.entry)?.declarations.has(request.name)) {
      return { holds: false, undecided: true, why: `no declaration of ${request.name} to probe` };
    }
    const self = failed.get(requests.length + index);
    if (self !== undefined) {
      return {
        holds: false,
        undecided: true,
        why: `TypeScript cannot relate ${request.name} even to a copy of itself, so the probe decides nothing: ${fence(self)}`,
      };
    }
    const why = failed.get(index);
    if (why === undefined) return { holds: true };
    const undecided = !/is not assignable|does not satisfy the constraint/.test(why);
    return { holds: false, undecided, why: fence(why) };
  });
}
