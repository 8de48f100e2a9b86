/**
 * Characters a reader does not see, or that move the text around them: controls (Unicode
 * category Cc, line breaks among them), format characters (Cf: bidirectional controls such as
 * U+202E, zero-width spaces and joiners, the byte-order mark, Unicode tags U+E0000 to U+E007F),
 * line and paragraph separators, lone surrogates, and every other default-ignorable code point
 * (variation selectors, Hangul fillers), any of which can carry text nobody sees or make a name
 * rearrange the words beside it. One definition for the sign-in front's pages, which show them,
 * and the MCP Apps views, which drop them from what a button shows and sends: no DOM and no Node.js
 * here, as the views' bundle (src/mcp/apps/build-views.ts) takes this module in.
 */

/** Every hidden character, one code point a match. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;

/** The hidden characters that break a line or space words apart: a space where they are dropped. */
const BREAKS = /^[\t\n\v\f\r\u0085\u2028\u2029]$/;

/**
 * How a hidden character is written where it is shown: its code point as a JavaScript escape,
 * `\u{202E}`, which names it and cannot itself be hidden.
 *
 * @example
 * ```ts
 * hiddenCharacterEscape('\u202e'); // '\\u{202E}'
 * ```
 */
export function hiddenCharacterEscape(character: string): string {
  return `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
}

/**
 * `text` with each hidden character shown: written as `mark` makes it of its escape
 * ({@link hiddenCharacterEscape}), the escape itself unless told.
 *
 * @example
 * ```ts
 * showHiddenCharacters('Claude \u202eevil'); // 'Claude \\u{202E}evil'
 * showHiddenCharacters('a\u200bb', (shownAs) => `<span>${shownAs}</span>`); // 'a<span>\\u{200B}</span>b'
 * ```
 */
export function showHiddenCharacters(
  text: string,
  mark: (shownAs: string) => string = (shownAs) => shownAs,
): string {
  return text.replace(HIDDEN, (character) => mark(hiddenCharacterEscape(character)));
}

/**
 * `text` without its hidden characters: line breaks and tabs become a space (as a page draws
 * them), every other one is dropped. What is left draws as it reads, so a button can show and
 * send the same string.
 *
 * @example
 * ```ts
 * withoutHiddenCharacters('Tell me more\u{E0041}\u{E0042}'); // 'Tell me more'
 * withoutHiddenCharacters('one\ntwo'); // 'one two'
 * ```
 */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, (character) => (BREAKS.test(character) ? ' ' : ''));
}
