/**
 * Packs the package the way `npm publish` would (its `prepack` builds), from a fresh clone in a
 * scratch folder: what ships is what a clone gives, and the repo's dist/ is never rewritten under
 * someone else's running tests.
 */
import { cp, mkdir, symlink } from 'node:fs/promises';
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
 * Makes `copy` a fresh clone of the working tree: every file git tracks or would track (changes
 * not yet committed included), and no `dist/`. The repo's node_modules is linked in, as
 * `npm install` would have made it, to spare a second install.
 */
export async function cloneWorkingTree(copy: string): Promise<void> {
  const files = (
    await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], repo)
  )
    .split('\0')
    .filter((path) => path !== '');
  for (const path of files) {
    await mkdir(dirname(join(copy, path)), { recursive: true });
    // A file deleted in the working tree but still in the index is not part of the clone.
    await cp(join(repo, path), join(copy, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await symlink(join(repo, 'node_modules'), join(copy, 'node_modules'));
}

/**
 * Packs the package as anyone would from a fresh clone, with no build made before: `npm pack`
 * with its scripts, whose `prepack` builds (`npm run build`). `copy` receives the clone, and
 * `destination` the tarball `npm publish` would upload. Returns what npm reported, with
 * `filename` made an absolute path.
 */
export async function packPackage(copy: string, destination: string): Promise<PackResult> {
  await cloneWorkingTree(copy);
  const output = await run('npm', ['pack', '--json', '--pack-destination', destination], copy);
  // The build prints its progress on the same output, before npm's JSON array.
  const result = packResult(output.slice(output.search(/^\[$/m)));
  return { ...result, filename: join(destination, result.filename) };
}
