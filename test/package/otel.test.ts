/**
 * agentchat/otel from the packed tarball on both lines of OpenTelemetry JS, which install side by
 * side but never mix (see the toolchain notes): a scratch project per line installs the tarball
 * beside that line's packages from the registry, as a user's project would, and runs
 * consumer/otel-scenario.mjs against the mock service.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { useMockServer } from '../helpers/package-consumer.js';

const run = promisify(execFile);
const mock = useMockServer();
/** The repo's Node 22 first, as `npm run test:package` puts it. */
const PATH = `${resolve(import.meta.dirname, '../../node_modules/.bin')}:${process.env.PATH}`;

/**
 * Each line's packages: the current one needs Node 22.15+, the 2.x one stays below api 1.10, and
 * `lowest` is the floor of the peer ranges (`@opentelemetry/api` ^1.9.0,
 * `@opentelemetry/instrumentation` >=0.200.0) with the SDK released beside that instrumentation:
 * what `npm run test:lowest` cannot install beside the tests' own SDK (docs/maintainers/dependencies.md).
 */
const LINES = {
  current: [
    '@opentelemetry/api@~1.10.0',
    '@opentelemetry/instrumentation@~0.301.0',
    '@opentelemetry/sdk-trace@~3.1.0',
    '@opentelemetry/core@~3.1.0',
    '@opentelemetry/context-async-hooks@~3.1.0',
  ],
  '2.x': [
    '@opentelemetry/api@~1.9.0',
    '@opentelemetry/instrumentation@~0.223.0',
    '@opentelemetry/sdk-trace-base@~2.12.0',
    '@opentelemetry/core@~2.12.0',
    '@opentelemetry/context-async-hooks@~2.12.0',
  ],
  lowest: [
    '@opentelemetry/api@1.9.0',
    '@opentelemetry/instrumentation@0.200.0',
    '@opentelemetry/sdk-trace-base@2.0.0',
    '@opentelemetry/core@2.0.0',
    '@opentelemetry/context-async-hooks@2.0.0',
  ],
} as const;

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function projectFor(line: keyof typeof LINES): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), `agentchat-otel-${line}-`));
  folders.push(folder);
  await writeFile(join(folder, 'package.json'), '{ "private": true, "type": "module" }\n');
  await cp(
    join(import.meta.dirname, 'consumer', 'otel-scenario.mjs'),
    join(folder, 'otel-scenario.mjs'),
  );
  await run(
    'npm',
    ['install', inject('tarball'), ...LINES[line], '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: folder, env: { ...process.env, PATH }, maxBuffer: 16 * 1024 * 1024 },
  );
  return folder;
}

interface ScenarioSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parent?: string;
}

describe.each(Object.keys(LINES) as (keyof typeof LINES)[])('OpenTelemetry JS, %s line', (line) => {
  it("records the call and its attempt under the app's span, and sends the attempt's traceparent", async () => {
    const folder = await projectFor(line);
    const { stdout } = await run('node', ['otel-scenario.mjs', mock.server.baseUrl, line], {
      cwd: folder,
      env: { PATH, HOME: process.env.HOME },
      timeout: 60_000,
    });
    const { spans } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      spans: ScenarioSpan[];
    };
    const job = spans.find((span) => span.name === 'job');
    const call = spans.find((span) => span.name === 'projects.create');
    const attempt = spans.find((span) => span.name === 'POST');
    expect(call?.parent).toBe(job?.spanId);
    expect(attempt?.parent).toBe(call?.spanId);
    expect(attempt?.kind).toBe(2); // SpanKind.CLIENT
    const received = mock.server.service
      .requestLog()
      .find((request) => (request.body as { name?: string }).name === `otel ${line}`);
    expect(received?.headers.traceparent).toBe(`00-${attempt?.traceId}-${attempt?.spanId}-01`);
  }, 240_000);
});

describe('agentchat/otel in a project without its peers', () => {
  /** A project with the tarball alone, and each of its optional peers left out. */
  async function projectWithoutPeers(): Promise<string> {
    const folder = await mkdtemp(join(tmpdir(), 'agentchat-otel-no-peers-'));
    folders.push(folder);
    await writeFile(join(folder, 'package.json'), '{ "private": true }\n');
    await run(
      'npm',
      ['install', inject('tarball'), '--prefer-offline', '--no-audit', '--no-fund'],
      {
        cwd: folder,
        env: { ...process.env, PATH },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return folder;
  }

  const named =
    'agentchat/otel needs @opentelemetry/api, an optional peer dependency of agentchat: ' +
    'npm install @opentelemetry/api @opentelemetry/instrumentation';

  it('names the package to install, imported or required', async () => {
    const folder = await projectWithoutPeers();
    const load = (args: string[]) =>
      run('node', args, { cwd: folder, env: { PATH, HOME: process.env.HOME } }).then(({ stdout }) =>
        stdout.trim(),
      );
    const esm = await load([
      '--input-type=module',
      '-e',
      "await import('agentchat/otel').then(() => console.log('loaded'), (error) => console.log(error.message))",
    ]);
    const cjs = await load([
      '-e',
      "try { require('agentchat/otel'); console.log('loaded') } catch (error) { console.log(error.message) }",
    ]);
    expect(esm).toBe(named);
    expect(cjs).toBe(named);
    // The client itself needs none of them.
    expect(await load(['-e', "console.log(typeof require('agentchat').Client)"])).toBe('function');
  }, 240_000);
});
