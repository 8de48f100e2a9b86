// The package.json that ships: the repository's without its development lifecycle scripts.
// `prepare` (scripts/engine-notice.mjs) speaks to contributors at each `npm install` of the
// repository; in the published manifest npm 11 would list it under "install scripts not yet
// covered by allowScripts" at every install of the package, though it never runs there.
//
//   node scripts/publish-manifest.mjs strip     (prepack: keeps the file aside, writes the manifest to ship)
//   node scripts/publish-manifest.mjs restore   (postpack: puts the repository's file back)
//
// npm packs the package.json it finds once prepack has run, so the tarball holds the stripped one.
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';

/** The lifecycle scripts npm runs at an install: none of them is for the package's users. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

const manifest = 'package.json';
const kept = 'package.json.repository';

const command = process.argv[2];
if (command === 'strip') {
  // Left by a pack that failed before postpack: that file is the repository's, not this one.
  if (existsSync(kept)) {
    console.error(
      `${kept} exists: a pack stopped halfway. Run: node scripts/publish-manifest.mjs restore`,
    );
    process.exit(1);
  }
  const text = await readFile(manifest, 'utf8');
  const pkg = JSON.parse(text);
  for (const name of INSTALL_SCRIPTS) delete pkg.scripts?.[name];
  await rename(manifest, kept);
  await writeFile(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (command === 'restore') {
  if (existsSync(kept)) await rename(kept, manifest);
} else {
  console.error('Usage: node scripts/publish-manifest.mjs strip|restore');
  process.exit(2);
}
