import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { consumerPath } from '../helpers/package-consumer.js';

const run = promisify(execFile);
const bin = (name: string) => resolve(import.meta.dirname, '../../node_modules/.bin', name);

/** Runs a linter on the tarball; a non-zero exit still yields its output, for the assertion. */
async function lint(name: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(bin(name), args, {
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

describe('the packed tarball', () => {
  it('passes publint at its strictest (suggestions included)', async () => {
    const { code, output } = await lint('publint', [
      'run',
      inject('tarball'),
      '--level',
      'suggestion',
      '--strict',
    ]);
    expect(output).toContain('All good!');
    expect(code).toBe(0);
  });

  it('passes arethetypeswrong under every resolution mode (node10, node16 CJS/ESM, bundler)', async () => {
    const { code, output } = await lint('attw', [inject('tarball'), '--format', 'json']);
    const report = JSON.parse(output.slice(output.indexOf('{'))) as {
      analysis: { problems: unknown[]; entrypoints: Record<string, unknown> };
    };
    expect(report.analysis.problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([
      '.',
      './ai-sdk',
      './langchain',
      './mastra',
      './mcp',
      './openai-agents',
      './otel',
      './package.json',
      './testing',
    ]);
    expect(code).toBe(0);
  });
});

describe('the builds', () => {
  const read = (file: string) =>
    readFile(consumerPath('node_modules/agentchat/dist', file), 'utf8');

  it('imports ky from the ESM build, so an app that also uses ky ships one copy', async () => {
    expect(await read('index.js')).toMatch(/from ['"]ky['"]/);
  });

  it('carries ky inside the CJS build, since ky is ESM only and cannot be required', async () => {
    const cjs = await read('index.cjs');
    expect(cjs).not.toMatch(/require\(['"]ky['"]\)/);
    // ky's own retry engine is there (its error for a bad retry limit is one of its strings).
    expect(cjs).toContain('`retry.limit` must be a finite, non-negative integer');
    expect(cjs).toMatch(/require\(['"]zod\/mini['"]\)/);
  });
});
