/**
 * Runs the test suite at one end of every version range package.json declares, in a scratch copy
 * of the work tree (agentchat-ranges/<end> in the system's temporary folder), so the repository's
 * own install and lockfile stay as they are. Not under node_modules: Node.js and vitest treat
 * files there as installed packages (Node refuses to strip their types).
 *
 * - `newest`: no lockfile, so npm installs the newest version every range allows, as a user
 *   installing today gets. Then every project of vitest.config.ts but the browsers' runs there
 *   (`node`, `mock on msw 2` and `examples`), less the lockfile's own check.
 * - `lowest`: the runtime dependencies and every optional peer pinned to the lowest version their
 *   range allows (the packages that must move with a peer, such as a framework's provider
 *   packages, pinned beside it: see ./ends.ts), as a user who installed long ago still runs.
 *   Then the same projects run the test files that use those packages (./ends.ts lists them).
 *
 * Before the tests, `npm ls` checks that the tree npm installed is one it calls valid for every
 * dependency and peer: a peer at a floor that a package installed beside it no longer takes is
 * reported there, not as a test's failure. The install and the tests each have a time limit, and
 * the time each took is printed at the end.
 *
 * `npm run test:newest` and `npm run test:lowest` run it; docs/maintainers/dependencies.md says
 * when and why.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { lowestOverrides, lowestPins, lowestTests, newestLeftOut, type RangeEnd } from './ends.js';
import { lowestSatisfying } from './versions.js';

const repo = resolve(import.meta.dirname, '../..');

/**
 * How long each step may take before it is stopped: a registry that stops answering, or a test
 * run that hangs, fails the run rather than holding a CI machine until the job's own limit.
 * About twice the longest each took on a 2-core machine at a load of 15 to 20
 * (docs/maintainers/dependencies.md has the times).
 */
const limits = { install: 12 * 60_000, tests: 45 * 60_000 };

/** The projects of vitest.config.ts the ends run: every one but the browsers'. */
const projects = ['node', 'mock on msw 2', 'examples'];

/**
 * Runs a command with its output shown as it comes; rejects unless it exits 0 within `limit` ms.
 * The command runs in a process group of its own, so that a step stopped at its limit (or by
 * Ctrl-C) takes every process it started with it.
 */
async function run(command: string, args: string[], cwd: string, limit: number): Promise<void> {
  const child = spawn(command, args, {
    cwd,
    stdio: 'inherit',
    detached: true,
    env: {
      ...process.env,
      // The copy's own binaries (its Node.js 22 among them) come first, as `npm run` would put them.
      PATH: [join(cwd, 'node_modules/.bin'), process.env.PATH].join(delimiter),
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    },
  });
  const stop = () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  const timer = setTimeout(() => {
    console.error(`${command} ${args.join(' ')} ran past ${limit / 60_000} minutes; stopping it.`);
    stop();
  }, limit);
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    if (code !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited ${code ?? signal} in ${cwd}`);
    }
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', stop).off('SIGTERM', stop);
  }
}

/** Runs a command and returns what it printed. */
async function output(command: string, args: string[], cwd: string): Promise<string> {
  const { code, text } = await printed(command, args, cwd, 'inherit');
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}`);
  return text;
}

/** Runs a command and returns what it printed on stdout, and its exit code, whatever it is. */
async function printed(
  command: string,
  args: string[],
  cwd: string,
  stderr: 'inherit' | 'ignore',
): Promise<{ code: number | null; text: string }> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', stderr] });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  // 'close', not 'exit': the output is whole only once the pipe has closed.
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, text };
}

/** Copies the work tree's tracked and new files (ignored ones left out) into `to`. */
async function copyWorkTree(to: string): Promise<void> {
  const listed = await output(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    repo,
  );
  for (const path of listed.split('\0').filter(Boolean)) {
    // A work tree may hold its install as a link to another checkout's node_modules, which git
    // lists as a new file: copied, it would have the copy's install write into that checkout's.
    if (path.split('/').includes('node_modules')) continue;
    if (!existsSync(join(repo, path))) continue;
    await mkdir(dirname(join(to, path)), { recursive: true });
    await cp(join(repo, path), join(to, path));
  }
  if (existsSync(join(to, 'node_modules'))) {
    throw new Error(`${to} has a node_modules before its install`);
  }
}

/**
 * Makes the copy a git repository of its own, its files in one commit: the tests of the
 * release (test/release: the tarball, the changesets) clone or list the work tree with git, as
 * `npm pack` from a fresh clone would. Committed before package.json is rewritten or anything
 * installed, so it holds the work tree as it was (less the lockfile).
 */
async function commitCopy(copy: string): Promise<void> {
  // Whoever runs it: no identity, signing or hooks of their own configuration needed.
  const settings = [
    ['user.name', 'agentchat ranges'],
    ['user.email', 'ranges@localhost'],
    ['commit.gpgSign', 'false'],
  ].flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  await output('git', ['init', '--quiet', '--initial-branch=main'], copy);
  await output('git', ['add', '--all'], copy);
  await output('git', [...settings, 'commit', '--quiet', '--no-verify', '-m', 'work tree'], copy);
}

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  overrides?: Record<string, unknown>;
}

/**
 * The exact version of each package pinned for the lowest end: every runtime dependency and
 * every optional peer at the lowest version its range allows, and the packages listed beside
 * each in ./ends.ts at theirs.
 */
async function lowestVersions(manifest: Manifest): Promise<Map<string, string>> {
  const pins = new Map<string, string>();
  const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
  for (const [name, range] of Object.entries(ranges)) {
    const published = JSON.parse(await output('npm', ['view', name, 'versions', '--json'], repo));
    pins.set(name, lowestSatisfying(published, range, name));
  }
  for (const [name, version] of Object.entries(lowestPins)) {
    if (version === null) pins.delete(name);
    else pins.set(name, version);
  }
  return pins;
}

/**
 * The copy's manifest with `pins` in place of the ranges of the packages they name, and the
 * packages deep in the peers' trees held where ./ends.ts says.
 */
function pinned(manifest: Manifest, pins: Map<string, string>): Manifest {
  const dependencies = { ...manifest.dependencies };
  const devDependencies = { ...manifest.devDependencies };
  for (const [name, version] of pins) {
    // A runtime dependency is installed through itself; a peer through its devDependency.
    if (name in dependencies) dependencies[name] = version;
    else devDependencies[name] = version;
  }
  const overrides = { ...manifest.overrides, ...lowestOverrides };
  return { ...manifest, dependencies, devDependencies, overrides };
}

/**
 * Fails unless npm calls the installed tree of `names` valid: every package at a version its
 * dependents' ranges and peer ranges take, none missing. (A package npm left behind that nothing
 * needs, `extraneous`, is no dependent's concern.)
 */
async function checkTree(copy: string, names: string[]): Promise<void> {
  // npm ls exits 1 when it finds a problem: its report, not its exit code, says which.
  const { text } = await printed('npm', ['ls', '--all', '--json', ...names], copy, 'ignore');
  const { problems = [] } = JSON.parse(text) as { problems?: string[] };
  const wrong = problems.filter((problem) => !problem.startsWith('extraneous:'));
  if (wrong.length > 0) {
    throw new Error(`npm installed a tree it calls invalid:\n  ${wrong.join('\n  ')}`);
  }
}

/** The minutes and seconds since `start`, for the summary. */
function since(start: number): string {
  const seconds = Math.round((performance.now() - start) / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

async function main(end: RangeEnd): Promise<void> {
  const copy = join(tmpdir(), 'agentchat-ranges', end);
  await rm(copy, { recursive: true, force: true });
  await copyWorkTree(copy);
  await rm(join(copy, 'package-lock.json'));
  await commitCopy(copy);

  const manifestPath = join(copy, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
  const pins = end === 'lowest' ? await lowestVersions(manifest) : new Map<string, string>();
  if (end === 'lowest') {
    await writeFile(manifestPath, `${JSON.stringify(pinned(manifest, pins), null, 2)}\n`);
    console.log(
      `Pinned at the lowest end:\n${[...pins].map(([n, v]) => `  ${n} ${v}`).join('\n')}`,
    );
  }
  // Each file or folder the lowest end names must be there: a name left behind by a move would
  // otherwise quietly run nothing.
  const tests = end === 'lowest' ? lowestTests : [];
  const absent = tests.filter((path) => !existsSync(join(copy, path)));
  if (absent.length > 0) throw new Error(`./ends.ts names tests that do not exist: ${absent}`);
  // Taken out of the copy rather than excluded on vitest's command line, which the projects of
  // vitest.config.ts would not see.
  if (end === 'newest') {
    for (const path of newestLeftOut) await rm(join(copy, path), { recursive: true, force: true });
  }

  // No lockfile: npm resolves every range afresh (the newest each allows, or the pins).
  const installStart = performance.now();
  await run('npm', ['install', '--no-audit', '--no-fund'], copy, limits.install);
  const installed = since(installStart);
  const names = [
    ...new Set([
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
      ...pins.keys(),
    ]),
  ];
  await run('npm', ['ls', '--depth=0', ...names], copy, limits.install);
  await checkTree(copy, names);

  const testStart = performance.now();
  await run(
    'npx',
    [
      'vitest',
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      // Absolute: vitest matches a relative filter against each project's own root, which for
      // the `examples` project is examples/testing/.
      ...tests.map((path) => `${copy}/${path}`),
    ],
    copy,
    limits.tests,
  );
  console.log(`The ${end} end: install ${installed}, tests ${since(testStart)}.`);
}

const end = process.argv[2];
if (end !== 'newest' && end !== 'lowest') {
  console.error('Usage: tsx scripts/ranges/run.ts newest|lowest');
  process.exit(2);
}
await main(end);
