/**
 * Copies package.json's version into src/version.ts, which the client sends in its User-Agent.
 * `npm run version` runs it right after `changeset version` bumps package.json.
 *
 *   npx tsx scripts/sync-version.ts          # rewrite src/version.ts when it differs
 *   npx tsx scripts/sync-version.ts --check  # exit 1 when it differs, change nothing
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION_LINE = /^export const VERSION = '([^']*)';$/m;

/** The versions in package.json and src/version.ts under `root`. */
export async function readVersions(root: string): Promise<{ pkg: string; source: string }> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  const source = (await readFile(join(root, 'src/version.ts'), 'utf8')).match(VERSION_LINE)?.[1];
  if (source === undefined) throw new Error(`src/version.ts has no line like ${VERSION_LINE}`);
  return { pkg: pkg.version, source };
}

/** Rewrites the version line of src/version.ts (its comments stay); returns whether it changed. */
export async function syncVersion(root: string): Promise<boolean> {
  const { pkg, source } = await readVersions(root);
  if (pkg === source) return false;
  const file = join(root, 'src/version.ts');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(VERSION_LINE, `export const VERSION = '${pkg}';`));
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (process.argv.includes('--check')) {
    const { pkg, source } = await readVersions(root);
    if (pkg !== source) {
      console.error(`src/version.ts says ${source}, package.json ${pkg}: run npm run version`);
      process.exit(1);
    }
  } else if (await syncVersion(root)) {
    console.log(`src/version.ts now says ${(await readVersions(root)).pkg}`);
  }
}
