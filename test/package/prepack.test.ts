/**
 * The tarball every packaging test installs is packed as anyone packs it, from a fresh clone with
 * no build made before (test/helpers/pack.ts): `npm pack` alone must give a package with its code.
 * A maintainer publishing by hand, or a user packing a branch to try it, gets exactly this. The
 * consumer project that installed it imports it both ways and runs both bins from it. Its manifest
 * keeps none of the repository's install-time scripts (`prepare` speaks to contributors), which
 * npm 11 would list at every install of the package.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { consumerPath } from '../helpers/package-consumer.js';
import { runProcess, startProcess } from '../helpers/run-process.js';

const bin = (name: string) => consumerPath('node_modules/.bin', name);

describe('npm pack from a fresh clone, without a prior build', () => {
  it('ships the built code, which imports from both module systems', async () => {
    const esm = await runProcess(
      'node',
      ['--input-type=module', '-e', "console.log(typeof (await import('agentchat')).Client)"],
      { cwd: consumerPath() },
    );
    const cjs = await runProcess(
      'node',
      ['-e', "console.log(typeof require('agentchat').Client)"],
      {
        cwd: consumerPath(),
      },
    );
    expect(esm).toMatchObject({ code: 0, stdout: 'function\n' });
    expect(cjs).toMatchObject({ code: 0, stdout: 'function\n' });
  });

  it('runs both bins from the installed tarball', async () => {
    const mock = await runProcess(bin('agentchat-mock'), ['--help'], { cwd: consumerPath() });
    const mcp = await runProcess(bin('agentchat-mcp'), ['--help'], { cwd: consumerPath() });

    expect(mock).toMatchObject({ code: 0, stderr: '' });
    expect(mock.stdout).toMatch(/^Usage: agentchat-mock/);
    expect(mcp).toMatchObject({ code: 0, stderr: '' });
    expect(mcp.stdout).toMatch(/^Usage: agentchat-mcp/);
  });

  it('serves the mock from the installed bin, and stops it on SIGTERM', async () => {
    const {
      ready: baseUrl,
      child,
      exited,
    } = await startProcess(bin('agentchat-mock'), ['--port', '0'], {
      ready: /listening on (\S+)/,
      cwd: consumerPath(),
    });

    const response = await fetch(`${baseUrl}/v1/projects`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the tarball', agentId: 'agent_1' }),
    });
    child.kill('SIGTERM');

    expect(response.status).toBe(201);
    expect(await exited).toEqual([0, null]);
  });
});

describe('the published manifest', () => {
  it('has no install-time script: the repository keeps its own', async () => {
    const shipped = JSON.parse(
      await readFile(consumerPath('node_modules/agentchat/package.json'), 'utf8'),
    ) as { scripts?: Record<string, string> };
    const repository = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { scripts: Record<string, string> };
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(shipped.scripts?.[name], name).toBeUndefined();
    }
    // The contributors' notice is still run by an install of the repository.
    expect(repository.scripts.prepare).toBe('node scripts/engine-notice.mjs');
  });

  it('installs with npm 11 without a word about its scripts', async () => {
    const npmVersion = await runProcess('npm', ['--version']);
    expect(npmVersion.stdout).toMatch(/^11\./);
    const project = await mkdtemp(join(tmpdir(), 'agentchat-install-scripts-'));
    try {
      await writeFile(join(project, 'package.json'), '{ "name": "fresh-app", "private": true }\n');
      const install = await runProcess(
        'npm',
        ['install', inject('tarball'), '--prefer-offline', '--no-audit', '--no-fund'],
        { cwd: project },
      );
      expect(install.code, install.stderr).toBe(0);
      const output = install.stdout + install.stderr;
      expect(output).not.toMatch(/install-scripts|allowScripts/);
      expect(output).not.toContain('engine-notice');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
