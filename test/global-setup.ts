/**
 * The node project's global setup: packs the package and builds the TypeDoc site once per run,
 * before any test file starts, for the files that check them (`readers` below). Each is made
 * only when the run includes a file that reads it, and a failure to make one is handed to that
 * file, which fails with the build's own output; the other files run on.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { LogLevel } from 'typedoc';
import type { TestProject } from 'vitest/node';
import { packPackage } from './helpers/pack.js';
import { runProcess } from './helpers/run-process.js';
// Types only: the helper imports vitest's test-side API, which this process need not load.
import type { Made, SharedPackage, SharedSiteFiles } from './helpers/shared-build.js';

/**
 * The test files that read each product, relative to the repo: a product is made only when the
 * run includes a file that reads it, so a run of other files builds nothing.
 */
const readers = {
  sharedPackage: 'test/release/pack.test.ts',
  sharedSite: 'test/docs/reference.test.ts',
} as const;

/** Packs from a fresh clone as `npm publish` would (its prepack builds), then extracts it. */
async function makePackage(scratch: string): Promise<SharedPackage> {
  const copy = join(scratch, 'copy');
  const packed = await packPackage(copy, scratch);
  const installed = join(scratch, 'installed');
  await mkdir(installed);
  // npm tarballs hold everything under package/.
  const untar = await runProcess('tar', [
    '-xzf',
    packed.filename,
    '-C',
    installed,
    '--strip-components=1',
  ]);
  if (untar.code !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  return { copy, installed, packed };
}

/**
 * Converts, validates and renders the site as `npm run docs` does (typedoc.json, its plugin
 * included) into `out`, and writes the converted project as TypeDoc's JSON beside it, for the
 * test files to revive.
 */
async function makeSite(out: string): Promise<SharedSiteFiles> {
  // Loaded here, not above: a run that builds no site need not load TypeDoc.
  const { Application, Logger, LogLevel, PackageJsonReader, TSConfigReader, TypeDocReader } =
    await import('typedoc');
  /** Collects what TypeDoc reports instead of printing it, so a failure can list every message. */
  class CollectingLogger extends Logger {
    readonly messages: string[] = [];
    override log(message: string, level: LogLevel): void {
      super.log(message, level);
      if (level === LogLevel.Warn || level === LogLevel.Error) {
        this.messages.push(`${LogLevel[level]}: ${message}`);
      }
    }
  }
  // Explicit readers: the default ones would also parse the test runner's own argv.
  const app = await Application.bootstrapWithPlugins({ out, logLevel: 'Warn' }, [
    new TypeDocReader(),
    new PackageJsonReader(),
    new TSConfigReader(),
  ]);
  const logger = new CollectingLogger();
  app.logger = logger;
  const project = await app.convert();
  if (!project) return { out, projectJson: undefined, messages: logger.messages };
  app.validate(project);
  await app.generateDocs(project, out);
  const projectJson = `${out}.json`;
  await app.generateJson(project, projectJson);
  return { out, projectJson, messages: logger.messages };
}

/** `make`'s product, or its failure as text. */
async function attempt<T>(make: () => Promise<T>): Promise<Made<T>> {
  try {
    return { made: await make() };
  } catch (error) {
    return { failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

export default async function setup(project: TestProject) {
  let scratch: string | undefined;
  /** Makes what the files at `paths` read, in a fresh folder, and provides it to them. */
  async function makeFor(paths: readonly string[]): Promise<void> {
    const running = new Set(paths.map((path) => relative(project.config.root, path)));
    if (scratch) await rm(scratch, { recursive: true, force: true });
    const folder = await mkdtemp(join(tmpdir(), 'agentchat-shared-build-'));
    scratch = folder;
    const [sharedPackage, sharedSite] = await Promise.all([
      running.has(readers.sharedPackage)
        ? attempt(() => makePackage(join(folder, 'package')))
        : undefined,
      running.has(readers.sharedSite) ? attempt(() => makeSite(join(folder, 'site'))) : undefined,
    ]);
    project.provide('sharedPackage', sharedPackage);
    project.provide('sharedSite', sharedSite);
  }
  await makeFor(project.vitest.state.getPaths());
  // In watch mode a rerun reads the sources as they are now, as a build per file did.
  project.onTestsRerun((specifications) => makeFor(specifications.map((spec) => spec.moduleId)));
  return async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  };
}
