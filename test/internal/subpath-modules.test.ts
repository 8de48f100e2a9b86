/**
 * The modules package.json `imports` swaps per platform (`#diagnostics`, `#server-runtime`) are
 * each built as a file of their own, which the CommonJS build does not share code with: a value
 * they imported from the rest of the SDK would be a second copy in dist, and an error class copied
 * there would fail `instanceof` against the one an application imports. They import types only;
 * what they need of the SDK, their callers pass in.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const core = new URL('../../src/core/', import.meta.url);

/** Each import or re-export statement of a module that brings a value, not only types. */
async function valueImports(file: string): Promise<string[]> {
  const source = await readFile(new URL(file, core), 'utf8');
  const statements = source.match(/^(?:import|export)\b[^;]*?\bfrom\s+'[^']+';/gms) ?? [];
  return statements
    .filter((statement) => !/^(?:import|export)\s+type\b/.test(statement))
    .filter((statement) => !/from\s+'node:/.test(statement))
    .map((statement) => statement.replace(/\s+/g, ' '));
}

describe("the platform-swapped modules import no value of the SDK's", () => {
  for (const file of [
    'diagnostics.ts',
    'diagnostics.browser.ts',
    'server-runtime.ts',
    'server-runtime.browser.ts',
  ]) {
    it(file, async () => {
      expect(await valueImports(file)).toEqual([]);
    });
  }

  it('a value import is found (the check can fail)', async () => {
    expect(await valueImports('attempt.ts')).toContainEqual(
      "import { withFetchOptions } from './fetch-options.js';",
    );
  });
});
