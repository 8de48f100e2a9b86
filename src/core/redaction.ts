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
