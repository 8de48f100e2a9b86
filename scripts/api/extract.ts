/**
 * API Extractor's report (`.api.md`) of each entry point, made from the sources as they are.
 *
 * The declarations come from tsc's declaration emit of `src/` (with `stripInternal`, as the build's
 * are), not from the build itself: the same declarations tsup's build makes, without building the
 * JavaScript of every format, so `npm test`, which builds nothing, can afford it. tsup names each
 * entry after its source (`testing/index` is `src/testing/index.ts`), so `dist/testing/index.d.ts`
 * is emitted as `testing/index.d.ts`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type IConfigFile,
} from '@microsoft/api-extractor';
import ts from 'typescript';
import type { EntryPoint } from './entry-points.js';

/** Writes the declarations of `root`'s `src/` into `outDir`; throws on any emit error. */
function emitDeclarations(root: string, outDir: string): void {
  const configFile = join(root, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(
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
        outDir,
      },
    },
    ts.sys,
    root,
  );
  const result = ts.createProgram(parsed.fileNames, parsed.options).emit();
  // Type errors are `npm run typecheck`'s to report; a declaration that cannot be written is ours.
  if (result.emitSkipped || result.diagnostics.length > 0) {
    const messages = result.diagnostics.map((diagnostic) =>
      ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    );
    throw new Error(`tsc could not write the declarations of src/:\n${messages.join('\n')}`);
  }
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

/**
 * The report of each of `entries`, by entry name, as API Extractor writes it for the sources
 * under `root` now.
 */
export async function extractReports(
  root: string,
  entries: readonly EntryPoint[],
): Promise<Map<string, string>> {
  const scratch = await mkdtemp(join(tmpdir(), 'agentchat-api-'));
  try {
    const typesDir = join(scratch, 'types');
    const reportDir = join(scratch, 'reports');
    emitDeclarations(root, typesDir);
    for (const entry of entries) {
      if (!existsSync(join(typesDir, entry.types))) {
        throw new Error(
          `${entry.name}: package.json says its types are dist/${entry.types}, but src/ has no ` +
            `${entry.types.replace(/\.d\.ts$/, '.ts')} whose declarations would be that file`,
        );
      }
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
