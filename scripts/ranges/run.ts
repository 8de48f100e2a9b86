/**
 * Runs the test suite at one end of every version range package.json declares, in a scratch copy
 * of the work tree (agentchat-ranges/<end> in the system's temporary folder), so the repository's
 * own install and lockfile stay as they are. Not under node_modules: Node.js and vitest treat
 * files there as installed packages (Node refuses to strip their types).
 *
 * - `newest`: no lockfile, so npm installs the newest version every range allows, as a user
 *   installing today gets.
 * - `lowest`: the runtime dependencies and every optional peer pinned to the lowest version their
 *   range allows (the packages that must move with a peer, such as a framework's provider
 *   packages, pinned beside it: see ./ends.ts), as a user who installed long ago still runs.
 *
 * Then it runs the `node` and `mock on msw 2` projects of vitest.config.ts there, without the few
 * test files and folders that check the repository's own install or build rather than the package
 * (./ends.ts says which).
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
import { leftOut, lowestPins, type RangeEnd } from './ends.js';
import { lowestSatisfying } from './versions.js';

const repo = resolve(import.meta.dirname, '../..');

/** Runs a command with its output shown as it comes; rejects unless it exits 0. */
async function run(command: string, args: string[], cwd: string): Promise<void> {
  const child = spawn(command, args, {
    cwd,
    stdio: 'inherit',
    env: {
      ...process.env,
      // The copy's own binaries (its Node.js 22 among them) come first, as `npm run` would put them.
      PATH: [join(cwd, 'node_modules/.bin'), process.env.PATH].join(delimiter),
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    },
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code} in ${cwd}`);
}

/** Runs a command and returns what it printed. */
async function output(command: string, args: string[], cwd: string): Promise<string> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}`);
  return text;
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
}

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
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

/** Writes the copy's manifest with `pins` in place of the ranges of the packages they name. */
function pinned(manifest: Manifest, pins: Map<string, string>): Manifest {
  const dependencies = { ...manifest.dependencies };
  const devDependencies = { ...manifest.devDependencies };
  for (const [name, version] of pins) {
    // A runtime dependency is installed through itself; a peer through its devDependency.
    if (name in dependencies) dependencies[name] = version;
    else devDependencies[name] = version;
  }
  return { ...manifest, dependencies, devDependencies };
}

async function main(end: RangeEnd): Promise<void> {
  const copy = join(tmpdir(), 'agentchat-ranges', end);
  await rm(copy, { recursive: true, force: true });
  await copyWorkTree(copy);
  await rm(join(copy, 'package-lock.json'));
  // Taken out of the copy rather than excluded on vitest's command line, which the projects of
  // vitest.config.ts would not see.
  for (const path of leftOut[end]) await rm(join(copy, path), { recursive: true, force: true });

  const manifestPath = join(copy, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
  if (end === 'lowest') {
    const pins = await lowestVersions(manifest);
    await writeFile(manifestPath, `${JSON.stringify(pinned(manifest, pins), null, 2)}\n`);
    console.log(
      `Pinned at the lowest end:\n${[...pins].map(([n, v]) => `  ${n} ${v}`).join('\n')}`,
    );
  }

  // No lockfile: npm resolves every range afresh (the newest each allows, or the pins).
  await run('npm', ['install', '--no-audit', '--no-fund'], copy);
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  await run('npm', ['ls', '--depth=0', ...names], copy);

  await run('npx', ['vitest', 'run', '--project', 'node', '--project', 'mock on msw 2'], copy);
}

const end = process.argv[2];
if (end !== 'newest' && end !== 'lowest') {
  console.error('Usage: tsx scripts/ranges/run.ts newest|lowest');
  process.exit(2);
}
await main(end);
