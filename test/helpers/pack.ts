/**
 * Builds and packs the package the way `npm run build && npm publish` would, but in a scratch
 * copy, so that the repo's dist/ is never rewritten under someone else's running tests.
 */
import { cp, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from './run-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** One entry of `npm pack --json`. */
export interface PackResult {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

async function run(command: string, args: string[], cwd: string): Promise<string> {
  const { code, stdout, stderr } = await runProcess(command, args, { cwd });
  if (code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${code} in ${cwd}:\n${stdout}\n${stderr}`);
  }
  return stdout;
}

/** Parses the JSON `npm pack --json` prints; npm reports one entry per packed package. */
function packResult(output: string): PackResult {
  const [result] = JSON.parse(output) as PackResult[];
  if (!result) throw new Error(`npm pack reported nothing:\n${output}`);
  return result;
}

/**
 * Makes `copy` hold what npm would pack from the repo: a fresh build in `copy/dist` (tsup with
 * tsup.config.ts, as `npm run build` makes it), and every other file npm selects (package.json,
 * its `files` globs, README, LICENSE). npm itself picks the files, so a new `files` entry needs
 * no change here.
 */
export async function stagePackage(copy: string): Promise<void> {
  await run('tsup', ['--out-dir', join(copy, 'dist'), '--silent'], repo);
  const listed = packResult(
    await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], repo),
  );
  for (const { path } of listed.files) {
    if (path.startsWith('dist/')) continue;
    await mkdir(dirname(join(copy, path)), { recursive: true });
    await cp(join(repo, path), join(copy, path));
  }
}

/**
 * Stages the package in `copy` and packs it into `destination`: the tarball `npm publish` would
 * upload. Returns what npm reported, with `filename` made an absolute path.
 */
export async function packPackage(copy: string, destination: string): Promise<PackResult> {
  await stagePackage(copy);
  const result = packResult(
    await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', destination],
      copy,
    ),
  );
  return { ...result, filename: join(destination, result.filename) };
}
