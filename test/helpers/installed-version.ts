/**
 * The version of a package the tests import: the repository's own install of it, which is each
 * end's own in `npm run test:newest` and `npm run test:lowest`. For the tests that assert what a
 * peer does at the version installed, where its releases differ.
 */
import { readFileSync } from 'node:fs';

export function installedVersion(name: string): string {
  const manifest = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
