/**
 * Writes dist/THIRD-PARTY-NOTICES.md after the build: the license of every package whose code the
 * build copied into dist/ (ky and jose into the CommonJS build, the mock server's HTTP bridge into
 * agentchat/testing). Their MIT licenses ask that the notice travel with the code; dependencies
 * that stay imports are installed with their own.
 *
 * Which packages were bundled is read from the build's source maps, which list every file a
 * bundle was made from, so a package bundled tomorrow is covered without a list kept by hand.
 *
 *   tsx scripts/build/third-party-notices.ts   (run by `npm run build`, after tsup)
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A package whose code is in the build, and the built files that hold it. */
export interface BundledPackage {
  readonly name: string;
  /** Where it is installed: its folder under node_modules. */
  readonly directory: string;
  readonly files: readonly string[];
}

/** The notices file, relative to the package's root. */
export const NOTICES_FILE = 'dist/THIRD-PARTY-NOTICES.md';

/**
 * The packages (from node_modules) that the source maps under `dist` name as sources, sorted by
 * name, each with the built files (relative to `root`) whose maps name it.
 */
export async function bundledPackages(root: string): Promise<BundledPackage[]> {
  const dist = join(root, 'dist');
  const maps = (await readdir(dist, { recursive: true })).filter((file) => file.endsWith('.map'));
  const found = new Map<string, { name: string; files: Set<string> }>();
  for (const map of maps) {
    const { sources } = JSON.parse(await readFile(join(dist, map), 'utf8')) as {
      sources: string[];
    };
    for (const source of sources) {
      // The last node_modules in the path: a package nested in another's is its own package.
      const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(source);
      if (match === null) continue;
      const [, installedAt = '', name = ''] = match;
      const directory = resolve(dist, dirname(map), installedAt);
      const entry = found.get(directory) ?? { name, files: new Set<string>() };
      entry.files.add(relative(root, join(dist, map.replace(/\.map$/, ''))));
      found.set(directory, entry);
    }
  }
  return [...found]
    .map(([directory, { name, files }]) => ({ name, directory, files: [...files].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The license file a package ships: LICENSE, LICENSE.md, LICENSE.txt and the like. */
export async function licenseText(directory: string, name: string): Promise<string> {
  const file = (await readdir(directory)).find((entry) => /^licen[cs]e(\.(md|txt))?$/i.test(entry));
  if (file === undefined) {
    throw new Error(`${name} is bundled into dist/ but ships no LICENSE file to copy.`);
  }
  return (await readFile(join(directory, file), 'utf8')).trim();
}

/** Writes the notices for the packages bundled into `root`'s dist/. */
export async function writeNotices(root: string): Promise<void> {
  const sections: string[] = [];
  for (const { name, directory, files } of await bundledPackages(root)) {
    const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as {
      version: string;
      license?: string;
    };
    sections.push(
      [
        `## ${name} ${manifest.version}`,
        `License: ${manifest.license ?? 'see below'}. Bundled into ${files.map((file) => `\`${file}\``).join(', ')}.`,
        `\`\`\`text\n${await licenseText(directory, name)}\n\`\`\``,
      ].join('\n\n'),
    );
  }
  const text = [
    '# Third-party notices',
    'The builds in this folder include code from the packages below, under the licenses that follow.',
    ...sections,
  ].join('\n\n');
  await writeFile(join(root, NOTICES_FILE), `${text}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeNotices(fileURLToPath(new URL('../..', import.meta.url)));
}
