/**
 * The first seconds of `npm test` on a machine without the programs the tests drive: one list
 * (.ci/system-packages) read by the check `npm test` runs first (scripts/check-system-programs.mjs)
 * and by .ci/install-system-packages, the script CI runs. A fresh machine is made by hiding the
 * programs: PATH holds only what npm itself needs, and the run is not root (it drops to `nobody`
 * when the suite runs as root).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const check = join(repo, 'scripts/check-system-programs.mjs');
/** `nobody` on Debian: no home, no sudo, no apt-get of its own. */
const NOBODY = 65_534;
const isRoot = process.getuid?.() === 0;

interface Listed {
  program: string;
  debianPackage: string;
}

async function listed(): Promise<Listed[]> {
  const text = await readFile(join(repo, '.ci/system-packages'), 'utf8');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [program = '', debianPackage = ''] = line.split(/\s+/);
      return { program, debianPackage };
    });
}

/** The programs a PATH of the test's own hides: all but those the tests run by a path that exists. */
function hidden(programs: readonly Listed[]): Listed[] {
  return programs.filter(({ program }) => !isAbsolute(program) || !existsSync(program));
}

/**
 * The environment of a shell with nothing but `bin` on PATH and none of npm's own variables. With
 * a fresh cache and `CI` unset, npm would first ask the registry whether a newer npm exists: the
 * notifier is off, so the test sends nothing beyond this machine whether `CI` is set or not.
 */
function freshEnv(bin: string, home: string): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  return {
    ...clean,
    PATH: bin,
    HOME: home,
    npm_config_cache: join(home, '.npm'),
    npm_config_update_notifier: 'false',
  };
}

/** Where a program named `name` is found on this machine's PATH. */
async function which(name: string): Promise<string> {
  const { stdout } = await runProcess('bash', ['-c', `command -v ${name}`]);
  return stdout.trim();
}

let scratch: string;
/** The only folder on PATH, besides the repo's node_modules/.bin that `runProcess` adds. */
let bin: string;

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentchat-fresh-machine-'));
  // `nobody` writes npm's cache and logs here.
  await chmod(scratch, 0o777);
  bin = join(scratch, 'bin');
  await mkdir(bin);
  // What npm needs to start and run a script: node, npm and a shell. None is on the list.
  await symlink(process.execPath, join(bin, 'node'));
  await symlink(await which('npm'), join(bin, 'npm'));
  await symlink(await which('sh'), join(bin, 'sh'));
  await symlink(await which('bash'), join(bin, 'bash'));
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('npm test on a machine without the programs the tests drive', () => {
  it('stops within seconds, before any check starts, with one message naming each missing program and the command that installs them', async () => {
    const programs = await listed();
    expect(programs.map(({ program }) => program)).toEqual(
      expect.arrayContaining(['chromium', 'redis-server', 'xvfb-run', 'tinyproxy', 'openssl']),
    );

    const started = performance.now();
    const { code, stdout, stderr } = await runProcess('npm', ['test'], {
      cwd: repo,
      env: freshEnv(bin, scratch),
      ...(isRoot ? { uid: NOBODY } : {}),
      // Were the check to let it through, npm test would run the whole suite from inside it.
      timeoutMs: 30_000,
    });
    const elapsedMs = performance.now() - started;

    expect(code).not.toBe(0);
    expect(elapsedMs).toBeLessThan(30_000);
    const messages = stderr.match(/agentchat: the tests drive programs this machine lacks/g);
    expect(messages, stderr).toHaveLength(1);
    // PATH hides a program found on it, not one the tests run by its path (/usr/bin/node), which
    // is named only where it is missing.
    const missing = hidden(programs);
    for (const entry of programs) {
      const line = `${entry.program} (Debian package ${entry.debianPackage})`;
      expect(stderr.includes(line), line).toBe(missing.includes(entry));
    }
    expect(stderr).toContain('\n  sudo bash .ci/install-system-packages\n');
    // The run stopped at the check: Biome, the first of npm test's own steps, never ran.
    expect(stdout).not.toContain('biome check');
  });

  it('passes silently, in well under a second, where every program is on PATH', async () => {
    const started = performance.now();
    const { code, stdout, stderr } = await runProcess('node', [check], { cwd: repo });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('.ci/install-system-packages and the check, from the one list', () => {
  /**
   * An apt-get that installs from the list: it records its arguments and, for `install`, puts
   * each package's program on PATH (a script that does nothing), as the real one would. A real
   * install cannot be undone by a test.
   */
  async function fakeAptGet(programs: Listed[]): Promise<string> {
    const calls = join(scratch, 'apt-get-calls');
    const cases = programs
      .map(({ program, debianPackage }) => `    ${debianPackage}) made=${program} ;;`)
      .join('\n');
    await writeFile(
      join(bin, 'apt-get'),
      `#!/bin/bash
printf '%s\\n' "$*" >>${JSON.stringify(calls)}
if [ "$1" = install ]; then
  for package in "\${@:3}"; do
    case "$package" in
${cases}
    esac
    # Only ever into the scratch folder: a program named by its path gets its base name there.
    printf '#!/bin/sh\\n' >"${bin}/\${made##*/}"
    /bin/chmod +x "${bin}/\${made##*/}"
  done
fi
`,
    );
    await chmod(join(bin, 'apt-get'), 0o755);
    return calls;
  }

  it('the install script asks apt-get for the package of each missing program, in the list’s order', async () => {
    const programs = await listed();
    const calls = await fakeAptGet(programs);
    await symlink(await which('chromium'), join(bin, 'chromium'));

    const { code, stderr } = await runProcess(
      '/bin/bash',
      [join(repo, '.ci/install-system-packages')],
      { env: freshEnv(bin, scratch) },
    );

    expect(code, stderr).toBe(0);
    const others = hidden(programs).filter(({ program }) => program !== 'chromium');
    expect(await readFile(calls, 'utf8')).toBe(
      `update\ninstall -y ${others.map(({ debianPackage }) => debianPackage).join(' ')}\n`,
    );
  });

  it('as root on Debian, the check runs the install script, then finds every program and lets the tests start', async () => {
    const programs = await listed();
    const calls = await fakeAptGet(programs);

    // Root where the suite is not: a user namespace in which this user is uid 0.
    const [command, args] = isRoot
      ? [process.execPath, [check]]
      : [await which('unshare'), ['--map-root-user', process.execPath, check]];
    const { code, stderr } = await runProcess(command, args, {
      cwd: repo,
      env: freshEnv(bin, scratch),
    });

    expect(code, stderr).toBe(0);
    expect(stderr).toContain('with bash .ci/install-system-packages');
    expect(stderr).not.toContain('this machine lacks:');
    expect(await readFile(calls, 'utf8')).toBe(
      `update\ninstall -y ${hidden(programs)
        .map(({ debianPackage }) => debianPackage)
        .join(' ')}\n`,
    );
  });
});
