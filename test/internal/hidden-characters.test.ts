/**
 * What the sign-in front's pages and the MCP Apps views count as hidden characters
 * (src/internal/hidden-characters.ts): every bidi control, zero-width and tag character, and
 * other invisible ones, shown as escapes on the pages and dropped from suggestion buttons; text
 * a person can read left as it is.
 */
import { describe, expect, it } from 'vitest';
import {
  showHiddenCharacters,
  withoutHiddenCharacters,
} from '../../src/internal/hidden-characters.js';

/** One of each kind: bidi controls, zero-width ones, a byte-order mark, tags, variation selectors, a Hangul filler, a soft hyphen, a lone surrogate. */
const HIDDEN = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u{e0001}',
  '\u{e0041}',
  '\u{e007f}',
  '\ufe0f',
  '\u{e0100}',
  '\u3164',
  '\u00ad',
  '\ud800',
  '\u0000',
  '\u001b',
];

describe('hidden characters', () => {
  it('are each shown as their code point, and dropped', () => {
    for (const character of HIDDEN) {
      const code = (character.codePointAt(0) ?? 0).toString(16).toUpperCase();
      expect(showHiddenCharacters(`a${character}b`)).toBe(`a\\u{${code}}b`);
      expect(withoutHiddenCharacters(`a${character}b`)).toBe('ab');
    }
  });

  it('make line breaks and tabs a space where dropped, and shown where shown', () => {
    expect(withoutHiddenCharacters('one\ntwo\r\nthree\tfour\u2028five')).toBe(
      'one two  three four five',
    );
    expect(showHiddenCharacters('one\ntwo')).toBe('one\\u{A}two');
  });

  it('leave what a person reads as it is: other scripts, emoji, spaces, combining accents', () => {
    const readable = 'Café 東京 שלום مرحبا 🙂 a\u00a0b e\u0301';
    expect(showHiddenCharacters(readable)).toBe(readable);
    expect(withoutHiddenCharacters(readable)).toBe(readable);
  });

  it('are marked as the caller asks', () => {
    expect(showHiddenCharacters('x\u202ey', (shown) => `[${shown}]`)).toBe('x[\\u{202E}]y');
  });
});
