/**
 * Builds the TypeDoc site the way `npm run docs` does (typedoc.json, its plugin included), into a
 * private folder, and keeps every warning and error TypeDoc reports so a test can list them.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Application,
  Logger,
  LogLevel,
  PackageJsonReader,
  type ProjectReflection,
  TSConfigReader,
  TypeDocReader,
} from 'typedoc';

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

/** A built site: where it is, the converted project, and TypeDoc's warnings and errors. */
export interface BuiltSite {
  readonly out: string;
  readonly project: ProjectReflection | undefined;
  readonly messages: readonly string[];
}

/**
 * Converts, validates and renders the site into a fresh folder under the system's temp folder
 * (several test runs may build it at the same time). The caller removes `out`.
 */
export async function buildSite(): Promise<BuiltSite> {
  const out = await mkdtemp(join(tmpdir(), 'agentchat-site-'));
  // Explicit readers: the default ones would also parse the test runner's own argv.
  const app = await Application.bootstrapWithPlugins({ out, logLevel: 'Warn' }, [
    new TypeDocReader(),
    new PackageJsonReader(),
    new TSConfigReader(),
  ]);
  const logger = new CollectingLogger();
  app.logger = logger;
  const project = await app.convert();
  if (project) {
    app.validate(project);
    await app.generateDocs(project, out);
  }
  return { out, project, messages: logger.messages };
}
