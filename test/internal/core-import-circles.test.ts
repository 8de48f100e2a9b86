/**
 * src/core reads one way, from the transport down through the call's state to the pieces it holds
 * (src/core/README.md gives the layers). No file imports one that, directly or not, imports it
 * back, type-only imports included: a type two files share lives in the lower one, a helper used
 * upward moves down, and a function a lower file needs from a higher one is passed in.
 */
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph } from '../helpers/import-graph.js';

const core = new URL('../../src/core', import.meta.url).pathname;

describe('src/core imports', () => {
  it('form no circle, type-only imports included', () => {
    const circles = importCircles(importGraph(core)).map(
      ({ files, path }) => `${path.join(' → ')} (${files.length} files: ${files.join(', ')})`,
    );
    expect(circles).toEqual([]);
  });

  it('are read in full: every file, type-only imports and re-exports among them', () => {
    const graph = importGraph(core);
    expect(graph.get('transport.ts')).toEqual(
      expect.arrayContaining(['attempt.ts', 'call.ts', 'errors/index.ts', 'options.ts']),
    );
    // `import type { ... }`, `export ... from` and `import type * as`.
    expect(graph.get('attempt-log.ts')).toContain('call.ts');
    expect(graph.get('errors/index.ts')).toContain('errors/api-error.ts');
    expect(graph.get('diagnostics.browser.ts')).toContain('diagnostics.ts');
  });
});

describe('importCircles', () => {
  it('finds a circle of type-only arrows, and one file importing itself', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCircles(graph)).toEqual([
      { files: ['a.ts', 'b.ts', 'c.ts'], path: ['a.ts', 'b.ts', 'c.ts', 'a.ts'] },
      { files: ['e.ts'], path: ['e.ts', 'e.ts'] },
    ]);
  });
});
