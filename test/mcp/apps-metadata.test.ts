/**
 * What the project card draws of a project's metadata (src/mcp/apps/views/metadata.ts): a small
 * value as its pretty-printed JSON; a large one within the bounds, whatever its shape, each cut
 * said in place; hidden characters in keys and strings shown. The card in a browser, with 1 MB
 * of metadata, is in apps-views-browsers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { drawMetadata, METADATA_LIMITS } from '../../src/mcp/apps/views/metadata.js';

describe('the project card’s metadata', () => {
  it('is a small value’s pretty-printed JSON, nothing cut', () => {
    const value = { tier: 2, tags: ['a', 'b'], owner: { name: 'Ada', active: true }, none: null };
    expect(drawMetadata(value)).toEqual({
      text: JSON.stringify(value, null, 2),
      leftOut: 0,
      cut: false,
    });
  });

  it('stays within its characters however many long strings there are', () => {
    const value = Array.from({ length: 40 }, (_, outer) =>
      Array.from({ length: 50 }, (_, inner) => `${outer}.${inner}:${'y'.repeat(10_000)}`),
    );
    const drawn = drawMetadata(value);
    // The bound, and the closing lines of the levels open.
    expect(drawn.text.length).toBeLessThanOrEqual(METADATA_LIMITS.characters + 100);
    expect(drawn.text).toMatch(/"… \(\+9,80\d characters\)/);
    expect(drawn.text).toMatch(/\n {2}… 3\d more items\n\]$/);
    expect(drawn.leftOut).toBeGreaterThan(30);
    expect(drawn.cut).toBe(true);
  });

  it('draws a deep value to its depth, each deeper level counted', () => {
    let value: unknown = 'bottom';
    for (let level = 0; level < 64; level += 1) value = { down: value };
    const drawn = drawMetadata(value);
    expect(drawn.text.split('\n')).toHaveLength(2 * METADATA_LIMITS.depth + 1);
    expect(drawn.text).toContain(`${'  '.repeat(METADATA_LIMITS.depth)}"down": {… 1 key}`);
    expect(drawn.leftOut).toBe(1);
  });

  it('shows the hidden characters of keys and strings as escapes', () => {
    const drawn = drawMetadata({ 'owner\u202e': 'Ada\u{e0041}\u200b' });
    expect(drawn.text).toBe('{\n  "owner\\u{202E}": "Ada\\u{E0041}\\u{200B}"\n}');
  });
});
