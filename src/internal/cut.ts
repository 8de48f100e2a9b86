/**
 * `text` cut to `max` characters, the last one an ellipsis, when it is longer: for a value quoted
 * in a message, or in the mock's replies.
 *
 * @example
 * ```ts
 * cut('abcdef', 4); // 'abc…'
 * ```
 */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
