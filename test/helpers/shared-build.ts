/**
 * What the package's own build makes, made once per run by test/global-setup.ts before any test
 * file starts, and read here by the files that check it: the tarball `npm pack` makes from a
 * fresh clone (test/release/pack.test.ts) and the TypeDoc site (test/docs/reference.test.ts).
 * Building while other files run took minutes on a busy machine; before they start, it has the
 * cores to itself.
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

/**
 * The test files that read each product, relative to the repo: the global setup makes a product
 * only when the run includes a file that reads it, so a run of other files builds nothing.
 */
export const readers = {
  sharedPackage: 'test/release/pack.test.ts',
  sharedSite: 'test/docs/reference.test.ts',
} as const;

function made<T>(key: keyof typeof readers, value: Made<T> | undefined): T {
  if (!value) {
    throw new Error(
      `test/global-setup.ts made no ${key}: add the file that reads it to \`readers\` in test/helpers/shared-build.ts.`,
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
