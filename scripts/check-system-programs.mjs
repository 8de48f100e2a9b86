// Run first by `npm test` and `npm run test:package` (their `pre` scripts), in well under a
// second: every program the tests drive must be on PATH before anything starts, so that a
// machine set up by `npm install` alone gets one message at once rather than failed tests
// (`spawn redis-server ENOENT`) minutes later. The list is .ci/system-packages, the one
// .ci/install-system-packages installs from. Where that script can run (root, apt-get, Debian or
// Ubuntu), it is run; otherwise the message names each missing program and the command that
// installs them, and the run stops. Plain JavaScript on Node's own modules: nothing to compile,
// nothing npm installs, so it runs as fast on a fresh clone as anywhere.
//
// `node scripts/check-system-programs.mjs [list]` reads another list than .ci/system-packages.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Not import.meta.dirname: whatever Node.js runs this (an old one, outside npm) gets as far as
// the message.
const repo = fileURLToPath(new URL('..', import.meta.url));
const installScript = '.ci/install-system-packages';
const listFile = process.argv[2] ?? join(repo, '.ci/system-packages');

/** The list's `program package` lines, comments and blank lines left out. */
function readList(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [program, debianPackage] = line.split(/\s+/);
      return { program, debianPackage };
    });
}

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `program` is an executable file in a directory of PATH, as a shell would find it; a
 * path (`/usr/bin/node`) is looked for where it says.
 */
function onPath(program) {
  if (isAbsolute(program)) return executable(program);
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && executable(join(dir, program)));
}

function missingFrom(list) {
  return list.filter(({ program }) => !onPath(program));
}

/** Debian, Ubuntu, or a system built on either, as /etc/os-release says. */
function debianLike() {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(release);
  } catch {
    return false;
  }
}

const isRoot = process.getuid?.() === 0;
const canInstall = isRoot && debianLike() && onPath('apt-get');
const list = readList(listFile);
let missing = missingFrom(list);

if (missing.length > 0 && canInstall) {
  console.error(
    `agentchat: installing what the tests drive and this machine lacks (${missing.map(({ program }) => program).join(', ')}) with bash ${installScript}`,
  );
  // The same script CI runs, with the same list; its output (apt-get's) is shown as it comes.
  spawnSync('bash', [join(repo, installScript)], { stdio: 'inherit' });
  missing = missingFrom(list);
}

if (missing.length > 0) {
  const named = missing
    .map(({ program, debianPackage }) => `${program} (Debian package ${debianPackage})`)
    .join(', ');
  const command = `${isRoot ? '' : 'sudo '}bash ${installScript}`;
  const where = debianLike()
    ? `Install them, then run the tests again:\n\n  ${command}\n`
    : `On Debian or Ubuntu, \`${command}\` installs them; on this system, install those programs with its own package manager, so that each is on PATH, then run the tests again.\n`;
  console.error(
    `\nagentchat: the tests drive programs this machine lacks: ${named}. No test has run. ${where}\nThe list, and why each is needed: ${relative(process.cwd(), listFile) || listFile}\n`,
  );
  process.exit(1);
}
