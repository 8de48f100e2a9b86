/** The longest a value quoted in a message (a path, a server's message, a Location) is shown. */
const MAX_QUOTED_LENGTH = 200;

/**
 * `text` cut to `max` characters (200 unless told), the last one an ellipsis, when it is longer:
 * for a value quoted in a message, or in the mock's replies.
 *
 * @example
 * ```ts
 * cut('abcdef', 4); // 'abc…'
 * ```
 */
export function cut(text: string, max: number = MAX_QUOTED_LENGTH): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
