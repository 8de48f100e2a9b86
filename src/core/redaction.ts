/**
 * Keeping secrets out of what the SDK writes. A server may echo the bearer token, a client secret
 * or an issued token back (in a body, a header, a request id); each is replaced by `[redacted]`
 * before it can reach an error or a log line, in every form it travels in.
 */

const REDACTED = '[redacted]';

/**
 * The values of OAuth token fields in a body, JSON (`"access_token": "…"`) or form-encoded
 * (`access_token=…`), whole or cut short: what a token endpoint issues is a secret wherever it
 * shows up, even in an answer that failed validation.
 */
const TOKEN_FIELD =
  /("(?:access|refresh|id)_token"\s*:\s*")((?:[^"\\]|\\.)*)|\b((?:access|refresh|id)_token=)[^&\s]*/g;

/**
 * `text` with every secret replaced, however short: as it is, JSON-escaped (a key holding `"` or
 * `\` is written `\"`, `\\` in a JSON body) and percent-encoded (in a URL or a form body), and
 * with the values of token fields.
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let scrubbed = text.includes('_token')
    ? text.replace(TOKEN_FIELD, (_, json, _value, form) => `${json ?? form}${REDACTED}`)
    : text;
  for (const form of formsOf(secrets)) scrubbed = scrubbed.replaceAll(form, REDACTED);
  return scrubbed;
}

/** Each secret's forms, worked out once per list: a call's list is its credential's, reused. */
const forms = new WeakMap<readonly string[], readonly string[]>();

function formsOf(secrets: readonly string[]): readonly string[] {
  let known = forms.get(secrets);
  if (!known) {
    const all = secrets
      .filter((secret) => secret !== '')
      .flatMap((secret) => [
        secret,
        JSON.stringify(secret).slice(1, -1),
        encodeURIComponent(secret),
      ]);
    known = [...new Set(all)];
    forms.set(secrets, known);
  }
  return known;
}

/** The headers with secrets scrubbed from their values; the same object when none had one. */
export function scrubHeaders(headers: Headers, secrets: readonly string[]): Headers {
  const values = [...headers];
  if (!values.some(([, value]) => scrub(value, secrets) !== value)) return headers;
  const scrubbed = new Headers();
  for (const [name, value] of values) scrubbed.append(name, scrub(value, secrets));
  return scrubbed;
}

/** What a request id looks like: printable ASCII, at most 200 characters. */
const REQUEST_ID = /^[\x20-\x7e]{1,200}$/;

/**
 * The response's `x-request-id` when it looks like one, with secrets scrubbed; `undefined` for
 * anything else (a megabyte of text, control characters), which no support desk could use.
 */
export function requestIdOf(headers: Headers, secrets: readonly string[] = []): string | undefined {
  const id = headers.get('x-request-id');
  return id !== null && REQUEST_ID.test(id) ? scrub(id, secrets) : undefined;
}

/**
 * A bearer token quoted after its scheme, which a cause's text may hold cut short (an error that
 * quotes a header to 40 characters) where no whole secret matches any more.
 */
const BEARER = /\b(Bearer\s+)(?!\[redacted\])[^\s"',;)\]}]+/gi;

/**
 * Someone else's text (a cause's message, an application's `fetch` or dispatcher error) with the
 * call's `secrets` scrubbed as {@link scrub} does, and any `Bearer <token>` besides.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  return scrub(text, secrets).replace(BEARER, `$1${REDACTED}`);
}

/** How deep a cause is read for secrets, and how many values at most: past either, a value is dropped. */
const MAX_DEPTH = 8;
const MAX_VALUES = 2_000;

/**
 * What an SDK error shows as its `cause`: `cause` itself when nothing it shows (its message, stack,
 * code, any field, its own cause and so on down, `AggregateError`'s errors, a `Headers`, `Request`
 * or `Response` it holds) quotes a secret of the call; otherwise a copy that does not. The copy of
 * an error is an error of the same class (`instanceof` holds) with the same fields, each string
 * scrubbed by {@link scrubText}; a field holding anything else that quotes a secret (a `Request`,
 * a socket) reads `[redacted]`. `cause` itself is the application's own, and is never changed.
 */
export function scrubCause(cause: unknown, secrets: readonly string[]): unknown {
  return new CauseReading(secrets).scrubbed(cause);
}

/** One cause read for secrets, then copied where it quotes one; each value read once. */
class CauseReading {
  /** Whether each object read quotes a secret; `true` while it is being read (a cycle). */
  readonly #quotes = new Map<object, boolean>();
  readonly #copies = new Map<object, unknown>();
  #budget = MAX_VALUES;

  readonly #secrets: readonly string[];

  constructor(secrets: readonly string[]) {
    this.#secrets = secrets;
  }

  /** The cause, copied where it quotes a secret; the cause itself when it quotes none. */
  scrubbed(cause: unknown): unknown {
    return this.#quotesSecret(cause, 0) ? this.#copy(cause, 0) : cause;
  }

  #quotesSecret(value: unknown, depth: number): boolean {
    if (typeof value === 'string') return scrubText(value, this.#secrets) !== value;
    if (typeof value !== 'object' || value === null) return false;
    const known = this.#quotes.get(value);
    if (known !== undefined) return known;
    // Past the limits nothing more is read: the value counts as quoting one, and is dropped.
    if (depth > MAX_DEPTH || this.#budget <= 0) return true;
    this.#quotes.set(value, true);
    const fields = fieldsOf(value);
    this.#budget -= fields.length + 1;
    const quotes = fields.some(([, field]) => this.#quotesSecret(field, depth + 1));
    this.#quotes.set(value, quotes);
    return quotes;
  }

  #copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return scrubText(value, this.#secrets);
    if (typeof value !== 'object' || value === null || !this.#quotesSecret(value, depth)) {
      return value;
    }
    const made = this.#copies.get(value);
    if (made !== undefined) return made;
    if (depth > MAX_DEPTH) return REDACTED;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      this.#copies.set(value, items);
      for (const item of value) items.push(this.#copy(item, depth + 1));
      return items;
    }
    if (isHeaders(value)) return scrubHeaders(value, this.#secrets);
    const prototype: unknown = Object.getPrototypeOf(value);
    const isError = value instanceof Error;
    if (!isError && prototype !== Object.prototype && prototype !== null) return REDACTED;
    // An error stays a native error (so that inspect and loggers show it as one) of its class.
    const copy: object = isError ? new Error() : Object.create(prototype as object | null);
    if (isError) {
      Object.setPrototypeOf(copy, prototype as object | null);
      // The copy's own stack would show where it was made; it shows the original's, or none.
      Reflect.deleteProperty(copy, 'stack');
    }
    this.#copies.set(value, copy);
    for (const [key, field, enumerable] of fieldsOf(value)) {
      Object.defineProperty(copy, key, {
        value: this.#copy(field, depth + 1),
        enumerable,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
}

/**
 * The fields of `value` that anyone showing it reads: an error's own properties (`message` and
 * `stack` included), a plain object's or an array's, the entries of headers, and the `url` and
 * `headers` of a request or a response (of any realm), read without ever throwing.
 */
function fieldsOf(value: object): [key: string, field: unknown, enumerable: boolean][] {
  if (isHeaders(value)) return [...value].map(([name, field]) => [name, field, true]);
  // Bytes (a body kept in a Buffer) show as numbers, never as the text of a secret.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return [];
  const fields: [string, unknown, boolean][] = [];
  for (const key of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!descriptor) continue;
    fields.push([key, read(() => Reflect.get(value, key)), descriptor.enumerable ?? false]);
  }
  for (const key of ['url', 'headers'] as const) {
    if (!Object.hasOwn(value, key) && key in value) {
      fields.push([key, read(() => Reflect.get(value, key)), false]);
    }
  }
  return fields;
}

/** A getter's value, or nothing when it throws (a `Request` getter read off another object). */
function read(get: () => unknown): unknown {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/** Headers of any realm (the platform's, or those of an undici of the application's own). */
function isHeaders(value: object): value is Headers {
  const headers = value as Partial<Headers>;
  return (
    typeof headers.get === 'function' &&
    typeof headers.append === 'function' &&
    typeof headers.forEach === 'function' &&
    typeof headers[Symbol.iterator] === 'function'
  );
}
