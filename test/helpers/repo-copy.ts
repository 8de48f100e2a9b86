/**
 * A scratch git repository holding this work tree as it is: a branch of its own for tests that
 * change, commit, version or publish the package (test/package/release.test.ts,
 * test/release/api-report.test.ts) without touching the repository.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from './run-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `git` in `cwd`, with no signing or hooks of anyone's config, and fails on failure. */
async function git(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { code, stdout, stderr } = await runProcess(
    'git',
    ['-c', 'user.name=Repo Copy', '-c', 'user.email=repo-copy@example.com', ...args],
    { cwd, env: { ...env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } },
  );
  if (code !== 0) throw new Error(`git ${args.join(' ')} exited ${code} in ${cwd}:\n${stderr}`);
  return stdout;
}

/**
 * Copies the work tree into `to` (tracked and new files, ignored ones left out, so uncommitted
 * changes are copied too), links the repo's node_modules in, and commits it all on `main`.
 */
export async function copyRepo(to: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const listed = await git(
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    repo,
    env,
  );
  for (const path of listed.split('\0').filter(Boolean)) {
    // Listed by the index but deleted in the work tree.
    if (!existsSync(join(repo, path))) continue;
    await mkdir(dirname(join(to, path)), { recursive: true });
    await cp(join(repo, path), join(to, path));
  }
  await symlink(join(repo, 'node_modules'), join(to, 'node_modules'), 'dir');
  await git(['init', '--quiet', '--initial-branch=main'], to, env);
  await git(['add', '--all'], to, env);
  await git(['commit', '--quiet', '--message', 'The work tree under test'], to, env);
}
