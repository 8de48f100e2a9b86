/**
 * A project's metadata as the card draws it: pretty-printed JSON, cut to a bounded amount so that
 * no project, however large its metadata (the service takes deep and wide values), stalls the view
 * of whoever opens it. Only what is drawn is visited, so the time is bounded too. Each cut says
 * what it left out in place (`… 99,950 more keys`, `{… 12 keys}`, `(+4,000 characters)`); the
 * tool's result keeps the whole value, for the model and for anyone reading it there. Hidden
 * characters in keys and strings are shown as `\u{202E}`-style escapes (hidden-characters.ts).
 */
import { showHiddenCharacters } from '../../../internal/hidden-characters.js';

/**
 * The bounds of what the card draws of a project's metadata (docs/mcp.md states them).
 *
 * @example
 * ```ts
 * METADATA_LIMITS.entries; // 50: keys of one object, or items of one array
 * ```
 */
export const METADATA_LIMITS = {
  /** Levels of nesting drawn; a deeper object or array is drawn as its size alone. */
  depth: 6,
  /** Keys of one object, or items of one array, drawn; the rest are counted. */
  entries: 50,
  /** Values drawn in all. */
  values: 500,
  /** Characters of one string, or of one key, drawn; the rest are counted. */
  stringLength: 200,
  /** Characters of the whole text; what would go past it is counted. */
  characters: 20_000,
} as const;

/**
 * The metadata as drawn, and how many keys or items it left out.
 *
 * @example
 * ```ts
 * const { text, leftOut, cut }: DrawnMetadata = drawMetadata(project.metadata);
 * ```
 */
export interface DrawnMetadata {
  readonly text: string;
  /** Keys and items not drawn, counted where they were cut (not the values inside them). */
  readonly leftOut: number;
  /** True when anything was cut: entries, depth or a string's length. */
  readonly cut: boolean;
}

/**
 * `value` pretty-printed within {@link METADATA_LIMITS}.
 *
 * @example
 * ```ts
 * drawMetadata({ tier: 2 }).text; // '{\n  "tier": 2\n}'
 * ```
 */
export function drawMetadata(value: unknown): DrawnMetadata {
  const lines: string[] = [];
  let characters = 0;
  let values = 0;
  let leftOut = 0;
  let cut = false;

  const add = (text: string): void => {
    lines.push(text);
    characters += text.length + 1;
  };
  /** Adds a line that starts a value, unless the text is full; false when it is. */
  const start = (text: string): boolean => {
    if (values >= METADATA_LIMITS.values || characters + text.length > METADATA_LIMITS.characters) {
      return false;
    }
    values += 1;
    add(text);
    return true;
  };
  const plural = (count: number, one: string, many: string) =>
    `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

  /** A string as JSON, cut to its bound, its hidden characters shown. */
  const text = (string: string): string => {
    if (string.length <= METADATA_LIMITS.stringLength) return shownJson(string);
    cut = true;
    // Not between the two halves of a surrogate pair.
    let end = METADATA_LIMITS.stringLength;
    const last = string.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    return `${shownJson(string.slice(0, end))}… (+${(string.length - end).toLocaleString('en')} characters)`;
  };

  /**
   * Writes `item` after `prefix` (indentation and key), then `suffix` (a comma): false when not
   * even its first line fits. An object or array ends with its closing line, whatever was cut
   * inside it, so the text may pass its bound by the closing lines of the levels open.
   */
  const write = (item: unknown, depth: number, prefix: string, suffix: string): boolean => {
    if (typeof item !== 'object' || item === null) {
      const scalar = typeof item === 'string' ? text(item) : String(JSON.stringify(item) ?? null);
      return start(`${prefix}${scalar}${suffix}`);
    }
    const array = Array.isArray(item);
    const keys = array ? undefined : Object.keys(item);
    const size = keys?.length ?? (item as unknown[]).length;
    const [open, close] = array ? ['[', ']'] : ['{', '}'];
    const [one, many] = array ? ['item', 'items'] : ['key', 'keys'];
    if (size === 0) return start(`${prefix}${open}${close}${suffix}`);
    if (depth >= METADATA_LIMITS.depth) {
      const drawn = start(`${prefix}${open}… ${plural(size, one, many)}${close}${suffix}`);
      if (drawn) {
        leftOut += size;
        cut = true;
      }
      return drawn;
    }
    if (!start(`${prefix}${open}`)) return false;
    const indent = '  '.repeat(depth + 1);
    const shown = Math.min(size, METADATA_LIMITS.entries);
    let drawn = 0;
    while (drawn < shown) {
      const key = keys?.[drawn];
      const child =
        key === undefined ? (item as unknown[])[drawn] : (item as Record<string, unknown>)[key];
      const keyText = key === undefined ? '' : `${text(key)}: `;
      if (!write(child, depth + 1, `${indent}${keyText}`, drawn < size - 1 ? ',' : '')) break;
      drawn += 1;
    }
    if (drawn < size) {
      leftOut += size - drawn;
      cut = true;
      add(`${indent}… ${plural(size - drawn, `more ${one}`, `more ${many}`)}`);
    }
    add(`${'  '.repeat(depth)}${close}${suffix}`);
    return true;
  };

  write(value, 0, '', '');
  return { text: lines.join('\n'), leftOut, cut };
}

/** A string as JSON, its hidden characters shown as escapes. */
function shownJson(string: string): string {
  return showHiddenCharacters(JSON.stringify(string));
}
