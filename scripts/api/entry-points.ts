/**
 * The package's entry points, read from package.json's `exports`: every subpath a user can import
 * (`agentchat`, `agentchat/testing`, ...), whichever branch added it, with the declaration file it
 * ships and the report that records its API.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One entry point of `exports`. */
export interface EntryPoint {
  /** What a user imports: `agentchat`, `agentchat/testing`. */
  readonly name: string;
  /** Its ESM declarations, relative to `dist/`: `testing/index.d.ts`. */
  readonly types: string;
  /** Its report's file name in `api/`: `agentchat-testing.api.md`. */
  readonly report: string;
}

type Conditions = string | { readonly [condition: string]: Conditions | undefined };

/** The `types` an `import` would get: the `import` condition's, else the entry's own. */
function importTypes(conditions: Conditions | undefined): string | undefined {
  if (conditions === undefined || typeof conditions === 'string') return undefined;
  const fromImport = conditions.import;
  if (typeof fromImport === 'object' && typeof fromImport.types === 'string') {
    return fromImport.types;
  }
  return typeof conditions.types === 'string' ? conditions.types : undefined;
}

/**
 * The entry points of the package.json in `root`; a subpath without declarations under `dist/`
 * (`./package.json`) is no API of its own.
 */
export async function entryPoints(root: string): Promise<EntryPoint[]> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, Conditions>;
  };
  const found: EntryPoint[] = [];
  for (const [subpath, conditions] of Object.entries(manifest.exports)) {
    const types = importTypes(conditions);
    if (types === undefined) continue;
    if (!types.startsWith('./dist/')) {
      throw new Error(`package.json exports["${subpath}"] has types outside dist/: ${types}`);
    }
    const name = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    found.push({
      name,
      types: types.slice('./dist/'.length),
      report: `${name.replaceAll('/', '-')}.api.md`,
    });
  }
  return found;
}
