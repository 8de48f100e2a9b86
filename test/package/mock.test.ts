import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { startMockServer } from '../../src/testing/index.js';
import { startMockBin } from '../helpers/package-consumer.js';
import { runProcess } from '../helpers/run-process.js';

/** Debian's own Node.js, older than msw 3 needs; `OLD_NODE` points elsewhere where it is not. */
const OLD_NODE = process.env.OLD_NODE ?? '/usr/bin/node';

const projects = [
  { name: 'msw 3, installed with the package', dir: () => inject('consumerDir'), msw: 3 },
  { name: 'msw 2, installed before the package', dir: () => inject('msw2ConsumerDir'), msw: 2 },
];

describe.each(projects)('agentchat/testing in a project on $name', ({ dir, msw }) => {
  it('installed without flags: npm finds every peer satisfied', async () => {
    const listing = await runProcess('npm', ['ls', '--all', '--json'], { cwd: dir() });
    const tree = JSON.parse(listing.stdout) as {
      problems?: string[];
      dependencies: Record<string, { version: string }>;
    };

    expect(tree.problems ?? []).toEqual([]);
    expect(listing.code).toBe(0);
    expect(tree.dependencies.msw?.version).toMatch(new RegExp(`^${msw}\\.`));
    const installed = JSON.parse(
      await readFile(join(dir(), 'node_modules/agentchat/package.json'), 'utf8'),
    ) as { peerDependencies: Record<string, string> };
    expect(installed.peerDependencies.msw).toBe('^2.7.0 || ^3.0.0');
  });

  it("passes the project's own node:test suite that mocks the service", async () => {
    const { code, stdout, stderr } = await runProcess('node', ['--test', 'mock.test.mjs'], {
      cwd: dir(),
    });

    expect(stderr).toBe('');
    expect(stdout).toContain(`(msw ${msw}.`);
    expect(stdout).toMatch(/^# pass 4$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
    expect(code).toBe(0);
  });

  it('serves the mock with `npx agentchat-mock`, keys and clients as given', async () => {
    const bin = await startMockBin(dir(), ['--port', '0', '--key', 'sk_bin', '--client', 'app:pw']);
    try {
      expect(bin.output()).toContain('API keys: sk_bin');
      const created = await fetch(`${bin.baseUrl}/v1/projects`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_bin', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'From npx', agentId: 'agent_bin' }),
      });
      expect(created.status).toBe(201);
      const token = await fetch(`${bin.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa('app:pw')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      expect(token.status).toBe(200);
    } finally {
      await bin.stop();
    }
    expect(bin.output().trim().split('\n').at(-1)).toBe('mock service stopped');
  });

  it(`on a Node.js older than msw ${msw} needs, ${msw === 3 ? 'fails at import, naming the version' : 'works'}`, async () => {
    const { stdout: version } = await runProcess(OLD_NODE, ['--version']);
    expect(version.trim(), `${OLD_NODE} must be older than Node.js 22.12`).toMatch(
      /^v(1\d|20|21|22\.(\d|1[01]))\./,
    );
    const imports = [
      "import('agentchat/testing').then((m) => console.log(typeof m.createMockService))",
      "console.log(typeof require('agentchat/testing').createMockService)",
    ];
    for (const program of imports) {
      const { code, stdout, stderr } = await runProcess(OLD_NODE, ['-e', program], { cwd: dir() });
      if (msw === 3) {
        expect(code).not.toBe(0);
        expect(stderr).toContain(
          `agentchat/testing: msw 3 needs Node.js 22.12.0 or later, and this is Node.js ${version.trim().slice(1)}.`,
        );
      } else {
        expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: 'function' });
      }
    }
  });
});

/** What the bin printed, without npm's own warnings about this machine's npm configuration. */
function ownLines(stderr: string): string[] {
  return stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'));
}

describe('npx agentchat-mock', () => {
  it('exits 1 with one line on a port in use, and 2 with one line on a bad flag', async () => {
    const taken = await startMockServer();
    const port = new URL(taken.url).port;
    try {
      const busy = await runProcess('npx', ['agentchat-mock', '--port', port], {
        cwd: inject('consumerDir'),
      });
      expect(busy.code).toBe(1);
      expect(ownLines(busy.stderr)).toEqual([
        `agentchat-mock: Cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE); pick another with --port`,
      ]);
    } finally {
      await taken.close();
    }

    const bad = await runProcess('npx', ['agentchat-mock', '--prot', '4010'], {
      cwd: inject('consumerDir'),
    });
    expect(bad.code).toBe(2);
    expect(ownLines(bad.stderr)).toEqual([
      expect.stringMatching(
        /^agentchat-mock: Unknown option --prot; did you mean --port\?.* \(see agentchat-mock --help\)$/,
      ),
    ]);
  });
});

describe('npx agentchat-mock in a project without msw', () => {
  it('answers --help and --version, and otherwise prints one line naming the package to install and exits 1', async () => {
    const project = await mkdtemp(join(tmpdir(), 'agentchat-no-msw-'));
    try {
      await writeFile(join(project, 'package.json'), '{"name":"no-msw","private":true}\n');
      const install = await runProcess(
        'npm',
        ['install', inject('tarball'), '--prefer-offline', '--no-audit', '--no-fund'],
        { cwd: project },
      );
      expect(install.code, install.stderr).toBe(0);

      const help = await runProcess('npx', ['agentchat-mock', '--help'], { cwd: project });
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: agentchat-mock \[options\]\n/);
      expect(help.stdout).toContain('(default 30000)');
      const version = await runProcess('npx', ['agentchat-mock', '--version'], { cwd: project });
      expect(version).toMatchObject({ code: 0, stderr: '' });
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

      const run = await runProcess('npx', ['agentchat-mock', '--port', '0'], { cwd: project });

      expect(run.code).toBe(1);
      expect(ownLines(run.stderr)).toEqual([
        'agentchat-mock: needs msw, an optional peer dependency of agentchat: npm install --save-dev msw',
      ]);
      expect(run.stdout).toBe('');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
