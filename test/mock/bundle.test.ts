import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { unusedNodeNet } from '../../scripts/build/unused-node-net.js';

describe('agentchat/testing in a browser bundle', () => {
  it('bundles for the browser without pulling in node:http', async () => {
    const result = await build({
      entryPoints: ['src/testing/index.ts'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      external: ['msw'],
      // As the package's build does (tsup.config.ts).
      plugins: [unusedNodeNet],
      write: false,
      logLevel: 'silent',
    });

    expect(result.errors).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).toContain('startMockServer');
    expect(code).not.toMatch(/import\(\s*["']node:http["']\s*\)/);
    expect(code).not.toMatch(/\b(?:import|from)\s*["'](?:node:)?net["']/);
  });
});
