/**
 * API Extractor's report (`.api.md`) of each entry point, made from the sources as they are, or
 * as a change held in memory would make them.
 *
 * The declarations come from tsc's declaration emit of `src/` (with `stripInternal`, as the build's
 * are), not from the build itself: the same declarations tsup's build makes, without building the
 * JavaScript of every format, so `npm test`, which builds nothing, can afford it. tsup names each
 * entry after its source (`testing/index` is `src/testing/index.ts`), so `dist/testing/index.d.ts`
 * is emitted as `testing/index.d.ts`.
 *
 * The sources are compiled once ({@link CompiledSources}); a variant of them (a file's text
 * replaced, as a branch would change it) reuses that program's parsed files and emits again only
 * the declarations its change can reach: the changed files and those that import them.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type IConfigFile,
} from '@microsoft/api-extractor';
import ts from 'typescript';
import type { EntryPoint } from './entry-points.js';

/**
 * Where the declarations seem to be written: emit hands them to this module, which keeps them in
 * memory. Nothing is written there.
 */
const VIRTUAL_OUT_DIR = '.api-declarations';

/** tsconfig.json's settings for `root`'s `src/`, set to emit its declarations only. */
function declarationSettings(root: string): ts.ParsedCommandLine {
  const configFile = join(root, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(
    {
      ...config,
      include: ['src'],
      compilerOptions: {
        ...config.compilerOptions,
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        stripInternal: true,
        rootDir: 'src',
        outDir: VIRTUAL_OUT_DIR,
      },
    },
    ts.sys,
    root,
  );
}

/**
 * The declarations of `files` (all of the program's when none are named), by path relative to
 * the declaration folder (`testing/index.d.ts`); throws on any emit error.
 */
function emitDeclarations(
  program: ts.Program,
  outDir: string,
  files?: readonly ts.SourceFile[],
): Map<string, string> {
  const emitted = new Map<string, string>();
  const writeFile: ts.WriteFileCallback = (fileName, text) => {
    emitted.set(relative(outDir, fileName), text);
  };
  const results = files
    ? files.map((file) => program.emit(file, writeFile))
    : [program.emit(undefined, writeFile)];
  // Type errors are `npm run typecheck`'s to report; a declaration that cannot be written is ours.
  const diagnostics = results.flatMap((result) => result.diagnostics);
  if (results.some((result) => result.emitSkipped) || diagnostics.length > 0) {
    const messages = diagnostics.map((diagnostic) =>
      ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    );
    throw new Error(`tsc could not write the declarations of src/:\n${messages.join('\n')}`);
  }
  return emitted;
}

/** The module specifiers `file` imports, exports from, or names in an `import()`, as written. */
function specifiersOf(file: ts.SourceFile): ts.StringLiteralLike[] {
  const found: ts.StringLiteralLike[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteralLike(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0]);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteralLike(node.argument.literal)
    ) {
      found.push(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The source files of `program` whose declarations may change with `changed`: those that import
 * one of them, directly or through others.
 */
function importersOf(
  program: ts.Program,
  host: ts.CompilerHost,
  changed: ReadonlySet<string>,
): ts.SourceFile[] {
  const options = program.getCompilerOptions();
  const cache = ts.createModuleResolutionCache(
    program.getCurrentDirectory(),
    host.getCanonicalFileName,
    options,
  );
  const importedBy = new Map<string, ts.SourceFile[]>();
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile) continue;
    for (const specifier of specifiersOf(file)) {
      const target = ts.resolveModuleName(
        specifier.text,
        file.fileName,
        options,
        host,
        cache,
        undefined,
        ts.getModeForUsageLocation(file, specifier, options),
      ).resolvedModule?.resolvedFileName;
      if (target === undefined) continue;
      importedBy.set(target, [...(importedBy.get(target) ?? []), file]);
    }
  }
  const found = new Map<string, ts.SourceFile>();
  const queue = [...changed];
  while (queue.length > 0) {
    for (const importer of importedBy.get(queue.pop() as string) ?? []) {
      if (found.has(importer.fileName) || changed.has(importer.fileName)) continue;
      found.set(importer.fileName, importer);
      queue.push(importer.fileName);
    }
  }
  return [...found.values()];
}

/** API Extractor's settings for one entry point: the report only, and no warnings written into it. */
function configFor(
  root: string,
  entry: EntryPoint,
  typesDir: string,
  reportDir: string,
): IConfigFile {
  const quiet = { logLevel: ExtractorLogLevel.None, addToApiReportFile: false };
  return {
    projectFolder: root,
    // Git and Biome keep the repository's files in LF; API Extractor's default is CRLF.
    newlineKind: 'lf',
    mainEntryPointFilePath: join(typesDir, entry.types),
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom', 'dom.iterable'],
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        files: [join(typesDir, entry.types)],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report.replace(/\.api\.md$/, ''),
      reportFolder: reportDir,
      reportTempFolder: reportDir,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: quiet },
      extractorMessageReporting: { default: quiet },
      tsdocMessageReporting: { default: quiet },
    },
  };
}

/** The report of each of `entries`, by entry name, as API Extractor writes it for `declarations`. */
async function reportsOf(
  root: string,
  entries: readonly EntryPoint[],
  declarations: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  for (const entry of entries) {
    if (!declarations.has(entry.types)) {
      throw new Error(
        `${entry.name}: package.json says its types are dist/${entry.types}, but src/ has no ` +
          `${entry.types.replace(/\.d\.ts$/, '.ts')} whose declarations would be that file`,
      );
    }
  }
  const scratch = await mkdtemp(join(tmpdir(), 'agentchat-api-'));
  try {
    const typesDir = join(scratch, 'types');
    const reportDir = join(scratch, 'reports');
    for (const [path, text] of declarations) {
      await mkdir(dirname(join(typesDir, path)), { recursive: true });
      await writeFile(join(typesDir, path), text);
    }
    const configs = entries.map((entry) =>
      ExtractorConfig.prepare({
        configObject: configFor(root, entry, typesDir, reportDir),
        configObjectFullPath: undefined,
        packageJsonFullPath: join(root, 'package.json'),
      }),
    );
    // One TypeScript program for every entry point: each would otherwise compile them all again.
    const [first] = configs;
    if (first === undefined) return new Map();
    const compilerState = CompilerState.create(first, {
      additionalEntryPoints: entries.map((entry) => join(typesDir, entry.types)),
    });
    const reports = new Map<string, string>();
    for (const [index, entry] of entries.entries()) {
      const config = configs[index] as ExtractorConfig;
      const result = Extractor.invoke(config, {
        localBuild: true,
        compilerState,
        // Its notes (the TypeScript it bundles) are noise here; warnings and errors still show.
        messageCallback: (message) => {
          if (
            message.logLevel === ExtractorLogLevel.Info ||
            message.logLevel === ExtractorLogLevel.Verbose
          ) {
            message.handled = true;
          }
        },
      });
      if (!result.succeeded) throw new Error(`API Extractor failed on ${entry.name}`);
      reports.set(entry.name, await readFile(join(reportDir, entry.report), 'utf8'));
    }
    return reports;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * `root`'s `src/` compiled once, with its declarations: the reports of the sources as they are,
 * and of variants of them, each a change held in memory (a file's text replaced or added, as a
 * branch would change it). A variant's program reuses the files this one parsed, and only the
 * declarations its change can reach are emitted again.
 *
 * @example
 * ```ts
 * const sources = CompiledSources.compile(root);
 * const reports = await sources.reports(entries);
 * const branch = await sources.reports(entries, new Map([['src/index.ts', changedText]]));
 * ```
 */
export class CompiledSources {
  readonly #root: string;
  readonly #settings: ts.ParsedCommandLine;
  /** The texts the host serves instead of the files' while a variant is compiled. */
  readonly #replaced = new Map<string, string>();
  readonly #host: ts.CompilerHost;
  readonly #program: ts.Program;
  readonly #declarations: ReadonlyMap<string, string>;

  private constructor(root: string) {
    this.#root = root;
    this.#settings = declarationSettings(root);
    this.#host = this.#createHost();
    this.#program = ts.createProgram({
      rootNames: this.#settings.fileNames,
      options: this.#settings.options,
      host: this.#host,
    });
    this.#declarations = emitDeclarations(this.#program, this.#outDir());
  }

  /** Compiles `root`'s `src/` and emits its declarations: seconds, tens on a busy machine. */
  static compile(root: string): CompiledSources {
    return new CompiledSources(root);
  }

  /** Where emit says it writes the declarations, which it hands to this class instead. */
  #outDir(): string {
    return this.#settings.options.outDir as string;
  }

  /** A compiler host that keeps each file it parsed, and serves the replaced texts over them. */
  #createHost(): ts.CompilerHost {
    const host = ts.createCompilerHost(this.#settings.options, true);
    const parsed = new Map<string, ts.SourceFile | undefined>();
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError) => {
      const text = this.#replaced.get(fileName);
      if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
      if (!parsed.has(fileName)) {
        parsed.set(fileName, getSourceFile(fileName, languageVersion, onError));
      }
      return parsed.get(fileName);
    };
    host.fileExists = (fileName) => this.#replaced.has(fileName) || fileExists(fileName);
    host.readFile = (fileName) => this.#replaced.get(fileName) ?? readFile(fileName);
    return host;
  }

  /**
   * The report of each of `entries`, by entry name, for the sources with `changes` made in
   * memory: each a path relative to the root, to the text the file holds instead (or holds, when
   * it is new).
   */
  async reports(
    entries: readonly EntryPoint[],
    changes: ReadonlyMap<string, string> = new Map(),
  ): Promise<Map<string, string>> {
    if (changes.size === 0) return reportsOf(this.#root, entries, this.#declarations);
    for (const [path, text] of changes) this.#replaced.set(join(this.#root, path), text);
    const changed = new Set(this.#replaced.keys());
    let emitted: Map<string, string>;
    try {
      const program = ts.createProgram({
        // A file added under src/ is one of the program's, as it would be on a branch.
        rootNames: [
          ...new Set([
            ...this.#settings.fileNames,
            ...[...changed].filter((path) => path.startsWith(join(this.#root, 'src/'))),
          ]),
        ],
        options: this.#settings.options,
        host: this.#host,
        oldProgram: this.#program,
      });
      const files = [...changed]
        .map((path) => program.getSourceFile(path))
        .filter((file) => file !== undefined);
      emitted = emitDeclarations(program, this.#outDir(), [
        ...files,
        ...importersOf(program, this.#host, changed),
      ]);
    } finally {
      // The next program reads the files as they are.
      this.#replaced.clear();
    }
    return reportsOf(this.#root, entries, new Map([...this.#declarations, ...emitted]));
  }
}

/**
 * The report of each of `entries`, by entry name, as API Extractor writes it for the sources
 * under `root` now.
 */
export async function extractReports(
  root: string,
  entries: readonly EntryPoint[],
): Promise<Map<string, string>> {
  return CompiledSources.compile(root).reports(entries);
}
