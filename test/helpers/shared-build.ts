/**
 * What the package's own build makes, made once per run by test/global-setup.ts before any test
 * file starts, and read here by the files that check it: the tarball `npm pack` makes from a
 * fresh clone (test/release/pack.test.ts) and the TypeDoc site (test/docs/reference.test.ts).
 * Built inside each file's `beforeAll` while other files ran, the two timed out on a busy machine;
 * made before the files start, they compete with no test file.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { JSONOutput, ProjectReflection } from 'typedoc';
import { inject } from 'vitest';
import type { PackResult } from './pack.js';

/** The packed package: what `npm publish` would upload, and where it was made. */
export interface SharedPackage {
  /** The fresh clone the tarball was packed from; its source maps point into it. */
  readonly copy: string;
  /** The extracted tarball: what `node_modules/agentchat` holds after an install. */
  readonly installed: string;
  /** What `npm pack --json` reported, `filename` an absolute path. */
  readonly packed: PackResult;
}

/** The built TypeDoc site, as files: the converted project is kept as TypeDoc's JSON. */
export interface SharedSiteFiles {
  readonly out: string;
  /** TypeDoc's JSON of the converted project; absent when it could not convert. */
  readonly projectJson: string | undefined;
  /** TypeDoc's warnings and errors, `Warn: ...` or `Error: ...`. */
  readonly messages: readonly string[];
}

/** The built site as a test reads it: the converted project revived from its JSON. */
export interface SharedSite {
  readonly out: string;
  readonly project: ProjectReflection | undefined;
  readonly messages: readonly string[];
}

/** What was made, or why it could not be: the failure belongs to the file that reads it. */
export type Made<T> = { readonly made: T } | { readonly failure: string };

declare module 'vitest' {
  export interface ProvidedContext {
    sharedPackage: Made<SharedPackage> | undefined;
    sharedSite: Made<SharedSiteFiles> | undefined;
  }
}

function made<T>(key: 'sharedPackage' | 'sharedSite', value: Made<T> | undefined): T {
  if (!value) {
    throw new Error(
      `test/global-setup.ts made no ${key}: add the file that reads it to \`readers\` in test/global-setup.ts.`,
    );
  }
  if ('failure' in value)
    throw new Error(`test/global-setup.ts could not make ${key}:\n${value.failure}`);
  return value.made;
}

/** The package the global setup packed. */
export function sharedPackage(): SharedPackage {
  return made('sharedPackage', inject('sharedPackage'));
}

/** The site the global setup built, its project revived from TypeDoc's JSON. */
export async function sharedSite(): Promise<SharedSite> {
  const { out, projectJson, messages } = made('sharedSite', inject('sharedSite'));
  if (!projectJson) return { out, project: undefined, messages };
  // Loaded here: test/global-setup.ts imports this file, and only a run that builds the site
  // needs TypeDoc.
  const { Application, FileRegistry, normalizePath } = await import('typedoc');
  const json = JSON.parse(await readFile(projectJson, 'utf8')) as JSONOutput.ProjectReflection;
  // No option readers: reviving needs no configuration, and the default readers would parse
  // the test runner's own argv.
  const app = await Application.bootstrap({ logLevel: 'Warn' }, []);
  const project = app.deserializer.reviveProject(json.name, json, {
    projectRoot: normalizePath(fileURLToPath(new URL('../..', import.meta.url))),
    registry: new FileRegistry(),
  });
  return { out, project, messages };
}
