/**
 * Each entry's declarations on their own, as a user of that entry alone meets them: a fresh
 * project with the packed tarball and only the entry's own optional peers installed type-checks a
 * file using the entry, as ESM (`usage.mts`, which takes the `import` declarations, `.d.ts`) and as
 * CJS (`usage.cts`, the `require` ones, `.d.cts`), with `strict` and `skipLibCheck: false` (tsc's
 * default, which checks every declaration file the program loads), under TypeScript 6 and 7.
 *
 * An entry whose published declarations import another entry's peer (agentchat/ai-sdk naming a
 * type through agentchat/mcp's declarations, which import the MCP SDK) fails here with TS2307,
 * where test/package/types.test.ts, whose project has every peer installed, cannot see it.
 *
 * What the compiler finds in the peers' own declarations is their authors' to fix (the AI SDK's
 * need Node's types and `@types/json-schema`, LangChain's `lib: esnext`, whatever agentchat does):
 * only what it finds in agentchat's declarations and in the user's file counts here.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONSUMER_PATH } from '../helpers/framework-consumer.js';

const run = promisify(execFile);
const repoModules = resolve(import.meta.dirname, '../../node_modules');

/** The version of a package the repo itself installs, so that npm's cache serves the consumers. */
function repoVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(repoModules, name, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** A diagnostic of `tsc --pretty false` in agentchat's declarations or the user's file. */
const ours = /(?:^|\/)node_modules\/agentchat\/|(?:^|\/)usage\.[cm]ts\(/;

/** TypeScript 6 (`typescript`) and 7 (`typescript7`, the native compiler), as the repo has them. */
const compilers = ['typescript', 'typescript7'].map((name) => ({
  version: repoVersion(name),
  bin: join(repoModules, name, 'bin', 'tsc'),
}));

/**
 * Each entry with the peers its declarations import, installed alone beside the tarball, and the
 * file of test/package/consumer/types that uses it.
 */
const entries = [
  { entry: 'agentchat', peers: [], usage: 'usage.ts' },
  // The mock's types build on msw's, which need the DOM library (msw's own requirement).
  { entry: 'agentchat/testing', peers: ['msw'], usage: 'usage-testing.ts' },
  // A Node.js entry: its declarations name node:http, so a project using it has Node's types,
  // and may well have no DOM library: Node's types are all it gets.
  {
    entry: 'agentchat/mcp',
    peers: ['@modelcontextprotocol/server', '@types/node'],
    usage: 'usage-mcp.ts',
    types: ['node'],
    lib: ['es2022'],
  },
  {
    entry: 'agentchat/otel',
    peers: ['@opentelemetry/api', '@opentelemetry/instrumentation'],
    usage: 'usage-otel.ts',
  },
  { entry: 'agentchat/ai-sdk', peers: ['ai'], usage: 'usage-ai-sdk.ts' },
  { entry: 'agentchat/openai-agents', peers: ['@openai/agents'], usage: 'usage-openai-agents.ts' },
  { entry: 'agentchat/langchain', peers: ['@langchain/core'], usage: 'usage-langchain.ts' },
  { entry: 'agentchat/mastra', peers: ['@mastra/core'], usage: 'usage-mastra.ts' },
] as const;

describe.each(entries)('$entry with only its own peers installed', (spec) => {
  let folder = '';

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentchat-entry-types-'));
    await writeFile(join(folder, 'package.json'), '{ "private": true }\n');
    const usage = join(import.meta.dirname, 'consumer', 'types', spec.usage);
    await copyFile(usage, join(folder, 'usage.mts'));
    await copyFile(usage, join(folder, 'usage.cts'));
    const types: readonly string[] = 'types' in spec ? spec.types : [];
    // The DOM library otherwise: the client's declarations name fetch's Request and Response,
    // which a project without Node's types has from there.
    const lib: readonly string[] = 'lib' in spec ? spec.lib : ['es2022', 'dom'];
    await writeFile(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib,
          types,
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['usage.mts', 'usage.cts'],
      }),
    );
    await run(
      'npm',
      [
        'install',
        inject('tarball'),
        ...spec.peers.map((peer) => `${peer}@${repoVersion(peer)}`),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      { cwd: folder, env: { ...process.env, PATH: CONSUMER_PATH }, maxBuffer: 16 * 1024 * 1024 },
    );
  }, 300_000);

  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('has no other entry its declarations could lean on: the MCP SDK only beside agentchat/mcp', () => {
    expect(existsSync(join(folder, 'node_modules', '@modelcontextprotocol', 'server'))).toBe(
      spec.entry === 'agentchat/mcp',
    );
  });

  it.each(compilers)(
    'type-checks as ESM and CJS with TypeScript $version, strict, declarations checked',
    async (compiler) => {
      const output = await run(
        process.execPath,
        [compiler.bin, '-p', folder, '--pretty', 'false'],
        {
          maxBuffer: 16 * 1024 * 1024,
        },
      ).then(
        ({ stdout }) => stdout,
        (error: { stdout: string; stderr: string }) => error.stdout + error.stderr,
      );
      // Ours, and what concerns no file (a project the compiler could not read).
      const found = output.split('\n').filter((line) => ours.test(line) || /^error/.test(line));
      expect(found).toEqual([]);
    },
    // Checking every declaration file the peers bring (the MCP SDK with Node's types, the Agents
    // SDK with openai's) takes TypeScript 6 15 to 40 s here, minutes when the machine is busy.
    240_000,
  );
});
