import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/testing/index.js';
import { type CliOutcome, runMockCli } from '../../src/testing/node/cli.js';
import { runProcess } from '../helpers/run-process.js';

const repo = new URL('../..', import.meta.url).pathname;
const running: CliOutcome[] = [];

/** Runs the command in this process, collecting what it prints. */
async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runMockCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  running.push(outcome);
  return { outcome, out: out.join('\n'), err };
}

afterEach(async () => {
  for (const outcome of running.splice(0)) {
    if (outcome.kind === 'serving') await outcome.server.close();
  }
});

/** The printed curl commands, each joined back into one shell line. */
function curlCommands(banner: string): string[] {
  return banner
    .replaceAll('\\\n', ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('curl '));
}

describe('agentchat-mock', () => {
  it('serves the accepted keys and clients and prints curl commands that work as printed', async () => {
    const { outcome, out, err } = await cli(
      '--port',
      '0',
      '--key',
      'sk_one',
      '--key',
      'sk_two',
      '--client',
      "it's me:p@ss:word",
    );
    if (outcome.kind !== 'serving') throw new Error(`did not start: ${err.join('\n')}`);
    const { baseUrl, service } = outcome.server;

    expect(out.split('\n')[0]).toBe(`agentchat mock service listening on ${baseUrl}`);
    expect(out).toContain('API keys: sk_one, sk_two');
    expect(out).toContain("OAuth clients: it's me");
    const [createCurl, tokenCurl] = curlCommands(out);
    const created = await runProcess('sh', ['-c', createCurl ?? 'false']);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Demo', status: 'active' });
    const token = await runProcess('sh', ['-c', tokenCurl ?? 'false']);
    expect(JSON.parse(token.stdout)).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });

    expect(service.requests.map((request) => request.status)).toEqual([201, 200]);
    const refused = await fetch(`${baseUrl}/v1/projects/proj_x`, {
      headers: { authorization: 'Bearer sk_other' },
    });
    expect(refused.status).toBe(401);
  });

  it('takes the host, base path, token lifetime, CORS origins and latency', async () => {
    const { outcome } = await cli(
      '--port=0',
      '--host',
      'localhost',
      '--base-path',
      '/svc',
      '--token-lifetime',
      '60',
      '--cors-origin',
      'http://localhost:5173',
      '--latency',
      '1',
    );
    if (outcome.kind !== 'serving') throw new Error('did not start');
    const { baseUrl } = outcome.server;

    expect(baseUrl).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+\/svc$/);
    const token = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('a:b')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect((await token.json()).expires_in).toBe(60);
    const preflight = await fetch(`${baseUrl}/v1/projects`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
  });

  it.each([
    [['--prot', '4010'], "Unknown option '--prot'"],
    [['--port', 'abc'], '--port takes a whole number up to 65535, got "abc"'],
    [['--port', '70000'], '--port takes a whole number up to 65535'],
    [['--client', 'no-secret'], '--client takes <id>:<secret>, got "no-secret"'],
    [['--key', ''], '--key takes a non-empty value'],
    [['--cors-origin', 'localhost:5173'], 'corsOrigins entries must be origins'],
    [['extra'], "Unexpected argument 'extra'"],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const { outcome, out, err } = await cli(...args);

    expect(outcome).toEqual({ kind: 'exit', code: 2 });
    expect(out).toBe('');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^agentchat-mock: .* \(see agentchat-mock --help\)$/);
    expect(err[0]).toContain(message);
  });

  it('prints help and the version', async () => {
    const help = await cli('--help');
    expect(help.outcome).toEqual({ kind: 'exit', code: 0 });
    expect(help.out).toMatch(/^Usage: agentchat-mock \[options\]/);
    for (const flag of ['--port', '--host', '--key', '--client', '--cors-origin']) {
      expect(help.out).toContain(flag);
    }
    expect((await cli('-v')).out).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('as a program: one line and exit code 1 on a port in use; stops on SIGTERM', async () => {
    const taken = await startMockServer();
    const port = new URL(taken.url).port;
    try {
      const busy = await runProcess('tsx', ['src/testing/node/bin.ts', '--port', port], {
        cwd: repo,
      });
      expect(busy.code).toBe(1);
      expect(busy.stderr.trim()).toBe(
        `agentchat-mock: Cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE); pick another with --port`,
      );
    } finally {
      await taken.close();
    }

    const child = spawn('node_modules/.bin/tsx', ['src/testing/node/bin.ts', '--port', '0'], {
      cwd: repo,
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    await expect.poll(() => stdout, { timeout: 20_000 }).toContain('Ctrl+C stops it.');
    const baseUrl = /listening on (\S+)/.exec(stdout)?.[1] ?? '';
    expect(
      (await fetch(`${baseUrl}/v1/projects/proj_x`, { headers: { authorization: 'Bearer k' } }))
        .status,
    ).toBe(404);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').at(-1)).toBe('mock service stopped');
  }, 40_000);
});
