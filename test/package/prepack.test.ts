/**
 * The tarball every packaging test installs is packed as anyone packs it, from a fresh clone with
 * no build made before (test/helpers/pack.ts): `npm pack` alone must give a package with its code.
 * A maintainer publishing by hand, or a user packing a branch to try it, gets exactly this. The
 * consumer project that installed it imports it both ways and runs both bins from it.
 */
import { describe, expect, it } from 'vitest';
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
