import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Writes files into a scratch folder, removed after the test. */
async function scratchFiles(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentchat-mock-cli-'));
  scratch.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}
const scratch: string[] = [];
afterEach(async () => {
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
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

    expect(service.requestLog().map((request) => request.status)).toEqual([201, 200]);
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
      '--token-lifetime-ms',
      '60000',
      '--allowed-origin',
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

  it('still takes --token-lifetime (seconds) and --cors-origin, warning once for each', async () => {
    const first = await cli(
      '--port=0',
      '--token-lifetime',
      '60',
      '--cors-origin',
      'http://localhost:5173',
    );
    if (first.outcome.kind !== 'serving') throw new Error('did not start');
    const { baseUrl } = first.outcome.server;

    expect(first.err).toEqual([
      'agentchat: agentchat-mock --token-lifetime is deprecated and will be removed in 2.0; use --token-lifetime-ms instead (it behaves the same). See docs/upgrading.md.',
      'agentchat: agentchat-mock --cors-origin is deprecated and will be removed in 2.0; use --allowed-origin instead (it behaves the same). See docs/upgrading.md.',
    ]);
    expect(first.out).toContain('Browser origins (CORS): http://localhost:5173');
    const token = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('a:b')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect((await token.json()).expires_in).toBe(60);
    const [issued] = first.outcome.server.service.oauth.tokens();
    expect(issued && issued.expiresAt - issued.issuedAt).toBe(60_000);

    const again = await cli('--port=0', '--token-lifetime', '60', '--cors-origin', 'http://a.test');
    expect(again.err).toEqual([]);
  });

  it('serves the projects of --seed, lists them and the origins in the banner', async () => {
    const dir = await scratchFiles({
      'seed.json': JSON.stringify({
        projects: [
          { id: 'proj_demo', name: 'Demo', agentId: 'agent_demo' },
          { name: 'Other', agentId: 'a' },
        ],
      }),
    });
    const { outcome, out } = await cli('--port', '0', '--seed', join(dir, 'seed.json'));
    if (outcome.kind !== 'serving') throw new Error('did not start');
    const { baseUrl, service } = outcome.server;

    const [, other] = service.projects();
    expect(out).toContain(`Projects: proj_demo, ${other?.id}`);
    expect(out).toContain('Browser origins (CORS): any (narrow with --allowed-origin)');
    expect(out).toContain('Agent: built in');
    const project = await fetch(`${baseUrl}/v1/projects/proj_demo`, {
      headers: { authorization: 'Bearer k' },
    });
    expect(await project.json()).toMatchObject({ id: 'proj_demo', name: 'Demo', status: 'active' });
    service.reset();
    expect(service.projects().map(({ id }) => id)).toEqual(['proj_demo', other?.id]);
  });

  it("answers chat with --agent's default export", async () => {
    const dir = await scratchFiles({
      'agent.mjs':
        'export default ({ project, message }) => ({ message: project.name + " scripted: " + message, suggestions: ["Next"] });',
      'seed.json': JSON.stringify({ projects: [{ id: 'proj_demo', name: 'Demo', agentId: 'a' }] }),
    });
    const { outcome, out } = await cli(
      '--port=0',
      `--agent=${join(dir, 'agent.mjs')}`,
      `--seed=${join(dir, 'seed.json')}`,
    );
    if (outcome.kind !== 'serving') throw new Error('did not start');

    expect(out).toContain('Agent: scripted (--agent)');
    const chat = await fetch(`${outcome.server.baseUrl}/v1/projects/proj_demo/chat`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hi' }),
    });
    expect(await chat.json()).toEqual({ message: 'Demo scripted: Hi', suggestions: ['Next'] });
  });

  it('logs a browser origin CORS refuses once, in one line naming the flag that allows it', async () => {
    const { outcome, out, err } = await cli(
      '--port=0',
      '--allowed-origin',
      'http://localhost:5173',
    );
    if (outcome.kind !== 'serving') throw new Error('did not start');
    const { baseUrl } = outcome.server;

    expect(out).toContain('Browser origins (CORS): http://localhost:5173');
    const fromPage = (origin: string, method = 'GET') =>
      fetch(`${baseUrl}/v1/projects/proj_x`, {
        method,
        headers: {
          origin,
          ...(method === 'OPTIONS'
            ? { 'access-control-request-method': 'GET' }
            : { authorization: 'Bearer k' }),
        },
      });
    expect((await fromPage('http://localhost:3000', 'OPTIONS')).status).toBe(403);
    await fromPage('http://localhost:3000');
    await fromPage('http://localhost:5173');
    await fromPage('http://127.0.0.1:8080');
    // Outside the base URL, the server answers itself, under the same rules.
    await fetch(`${outcome.server.url}/elsewhere`, { headers: { origin: 'http://[::1]:9000' } });

    expect(err).toEqual([
      'agentchat-mock: refused a request from http://localhost:3000 (CORS); allow it with --allowed-origin http://localhost:3000',
      'agentchat-mock: refused a request from http://127.0.0.1:8080 (CORS); allow it with --allowed-origin http://127.0.0.1:8080',
      'agentchat-mock: refused a request from http://[::1]:9000 (CORS); allow it with --allowed-origin http://[::1]:9000',
    ]);
  });

  it('trusts the issuers of --trust-issuer for the --audience given, and says so in the banner', async () => {
    const { outcome, out } = await cli(
      '--port=0',
      '--trust-issuer',
      'https://token.actions.githubusercontent.com',
      '--trust-issuer',
      'http://127.0.0.1:8001',
      '--audience',
      'agentchat',
    );
    if (outcome.kind !== 'serving') throw new Error(`did not start: ${out}`);

    expect(out).toContain(
      `Workload identity issuers: https://token.actions.githubusercontent.com, http://127.0.0.1:8001 (tokens for ${outcome.server.baseUrl}/oauth/token or agentchat)`,
    );
    const refused = await fetch(`${outcome.server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=not-a-jwt',
    });
    expect(await refused.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'The assertion is not a signed JWT',
    });
  });

  it('says in the banner how to take workload identity tokens, when no issuer is trusted', async () => {
    const { out } = await cli('--port=0');

    expect(out).toContain('Workload identity issuers: none (add with --trust-issuer)');
  });

  it('refuses a --trust-issuer that is not a URL and an empty --audience, with exit code 2', async () => {
    for (const [args, message] of [
      [
        ['--trust-issuer', 'token.actions.githubusercontent.com'],
        '--trust-issuer takes an issuer URL',
      ],
      [['--audience', ''], '--audience takes a non-empty value'],
    ] as const) {
      const { outcome, err } = await cli('--port=0', ...args);
      expect(outcome).toEqual({ kind: 'exit', code: 2 });
      expect(err).toEqual([expect.stringContaining(message)]);
    }
  });

  it('refuses a seed file or an agent module it cannot use, with one line and exit code 2', async () => {
    const dir = await scratchFiles({
      'broken.json': '{"projects": [',
      'wrong-key.json': '{"project": []}',
      'bad-seed.json': '{"projects": [{"name": "Demo"}]}',
      'no-default.mjs': 'export const agent = () => ({});',
    });
    const cases: [string[], string][] = [
      [
        ['--seed', join(dir, 'missing.json')],
        `--seed ${join(dir, 'missing.json')}: cannot read it (ENOENT)`,
      ],
      [['--seed', join(dir, 'broken.json')], `--seed ${join(dir, 'broken.json')}: `],
      [
        ['--seed', join(dir, 'wrong-key.json')],
        'A seed file has no field "project"; did you mean "projects"?',
      ],
      [
        ['--seed', join(dir, 'bad-seed.json')],
        'projects[0].agentId: expected a non-empty string, got nothing',
      ],
      [
        ['--agent', join(dir, 'missing.mjs')],
        `--agent ${join(dir, 'missing.mjs')}: cannot load it: `,
      ],
      [['--agent', join(dir, 'no-default.mjs')], 'its default export must be a function'],
    ];
    for (const [args, message] of cases) {
      const { outcome, out, err } = await cli('--port=0', ...args);
      expect(outcome).toEqual({ kind: 'exit', code: 2 });
      expect(out).toBe('');
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(/^agentchat-mock: .* \(see agentchat-mock --help\)$/);
      expect(err[0]).toContain(message);
    }
  });

  it.each([
    [['--prot', '4010'], 'Unknown option --prot; did you mean --port?'],
    [
      ['--allowed-orign', 'http://a.test'],
      'Unknown option --allowed-orign; did you mean --allowed-origin?',
    ],
    [['--port', 'abc'], '--port takes a whole number up to 65535, got "abc"'],
    [['--port', '70000'], '--port takes a whole number up to 65535'],
    [['--client', 'no-secret'], '--client takes <id>:<secret>, got "no-secret"'],
    [['--key', ''], '--key takes a non-empty value'],
    [['--allowed-origin', 'localhost:5173'], 'allowedOrigins entries must be origins'],
    [['--token-lifetime-ms', '1.5'], '--token-lifetime-ms takes a whole number'],
    [
      ['--allowed-origin', 'http://a.test', '--cors-origin', 'http://b.test'],
      'give --allowed-origin or --cors-origin (its deprecated alias), not both',
    ],
    [
      ['--token-lifetime-ms', '1000', '--token-lifetime', '1'],
      'give --token-lifetime-ms or --token-lifetime (its deprecated alias), not both',
    ],
    [['extra'], 'agentchat-mock takes options only (--port, --host,'],
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
    for (const flag of [
      '--port',
      '--host',
      '--key',
      '--client',
      '--token-lifetime-ms',
      '--allowed-origin',
      '--seed',
      '--agent',
    ]) {
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
