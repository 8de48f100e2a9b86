/**
 * src/core reads one way, from the transport down through the call's state to the pieces it holds
 * (src/core/README.md gives the layers). No file imports one that, directly or not, imports it
 * back, type-only imports included: a type two files share lives in the lower one, a helper used
 * upward moves down, and a function a lower file needs from a higher one is passed in.
 */
import { describe, expect, it } from 'vitest';
import { type ImportCircle, importCircles, importGraph } from '../helpers/import-graph.js';

const src = new URL('../../src', import.meta.url).pathname;
const core = `${src}/core`;

/** The circles of a graph, each as its path around and the files in it. */
function described(circles: ImportCircle[]): string[] {
  return circles.map(
    ({ files, path }) => `${path.join(' → ')} (${files.length} files: ${files.join(', ')})`,
  );
}

describe('src/core imports', () => {
  it('form no circle, type-only imports included', () => {
    expect(described(importCircles(importGraph(core)))).toEqual([]);
  });

  it('form no circle through a file outside src/core either (src/schemas.ts, src/internal/)', () => {
    const throughCore = importCircles(importGraph(src)).filter(({ files }) =>
      files.some((file) => file.startsWith('core/')),
    );
    expect(described(throughCore)).toEqual([]);
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
