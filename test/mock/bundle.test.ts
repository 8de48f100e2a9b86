import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('agentchat/testing in a browser bundle', () => {
  it('bundles for the browser without pulling in node:http', async () => {
    const result = await build({
      entryPoints: ['src/testing/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      external: ['msw'],
      write: false,
      logLevel: 'silent',
    });

    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).toContain('startMockServer');
    expect(code).not.toMatch(/import\(\s*["']node:http["']\s*\)/);
  });
});
