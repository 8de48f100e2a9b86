/**
 * A request body as received: nothing, text that parses as JSON, or other text. The text is kept
 * in every case, for endpoints that read another format (the token endpoint's form).
 */
export type RequestBody =
  | { kind: 'empty'; text: '' }
  | { kind: 'json'; text: string; value: unknown }
  | { kind: 'text'; text: string };

/**
 * Classifies a request body's text. Parsed whatever the content type says, because the service
 * contract is "JSON bodies" and a wrong header should not hide what was actually sent.
 *
 * @example
 * ```ts
 * classifyBody('{"name":"Demo"}'); // { kind: 'json', text: '{"name":"Demo"}', value: { name: 'Demo' } }
 * classifyBody('name=Demo');       // { kind: 'text', text: 'name=Demo' }
 * ```
 */
export function classifyBody(text: string): RequestBody {
  if (text === '') return { kind: 'empty', text };
  try {
    return { kind: 'json', text, value: JSON.parse(text) };
  } catch {
    return { kind: 'text', text };
  }
}

/** The body is over the limit: it was read no further than the limit, and is answered 413. */
export const TOO_LARGE = Symbol('request body too large');

/**
 * Reads a request's body as text, no further than `limit` bytes: {@link TOO_LARGE} when it is
 * longer, known from `Content-Length` without reading, or found while reading, which then stops
 * and cancels the rest. The whole text of a longer body is never held.
 *
 * @example
 * ```ts
 * const text = await readBodyText(request, 4_194_304);
 * if (text === TOO_LARGE) return errorResponse(413, requestId);
 * ```
 */
export async function readBodyText(
  request: Request,
  limit: number,
): Promise<string | typeof TOO_LARGE> {
  if (Number(request.headers.get('content-length')) > limit) return TOO_LARGE;
  // Firefox hands a service worker's requests over without a body stream (`body` is undefined);
  // the body is then read whole, as the browser already holds it, and measured after.
  if (request.body === undefined) return textWithin(await request.text(), limit);
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    received += chunk.value.byteLength;
    if (received > limit) {
      // Stops reading the client's upload where it passed the limit; the host closes the
      // connection. Not awaited: msw reads a clone of the request, a branch of the same stream,
      // and cancelling one branch settles only once the other is cancelled too.
      reader.cancel().catch(() => {});
      return TOO_LARGE;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}

/** `text`, or {@link TOO_LARGE} when its UTF-8 form is longer than `limit` bytes. */
function textWithin(text: string, limit: number): string | typeof TOO_LARGE {
  return new TextEncoder().encode(text).byteLength > limit ? TOO_LARGE : text;
}

/**
 * The longest body the request log keeps, in characters: enough for every request of the service,
 * and a bound on what a log of many requests holds.
 */
export const LOGGED_BODY_LIMIT = 16_384;

/**
 * The body as the request log shows it: the JSON value, the raw text, or `undefined`. A body
 * longer than {@link LOGGED_BODY_LIMIT} is kept as its first characters, as text, and marked.
 *
 * @example
 * ```ts
 * recordedBody(classifyBody('')); // { body: undefined }
 * recordedBody(classifyBody('{"a":1}')); // { body: { a: 1 } }
 * ```
 */
export function recordedBody(body: RequestBody): { body: unknown; bodyTruncated?: true } {
  if (body.text.length > LOGGED_BODY_LIMIT) {
    return { body: detached(body.text.slice(0, LOGGED_BODY_LIMIT)), bodyTruncated: true };
  }
  if (body.kind === 'json') return { body: body.value };
  if (body.kind === 'text') return { body: body.text };
  return { body: undefined };
}

/**
 * A copy of `text` that holds no reference to a longer string: a slice of a 4 MiB body may be
 * kept by the engine as a view of the whole body, which the log would then hold.
 */
function detached(text: string): string {
  return new TextDecoder().decode(new TextEncoder().encode(text));
}

/**
 * A digest equal for equal bodies: a hash of the JSON with object keys sorted, so
 * `{"a":1,"b":2}` and `{"b":2,"a":1}` count as the same request when an Idempotency-Key is
 * reused. A digest rather than the text: the mock remembers one per key, and bodies may be large.
 * Computed at once, not with Web Crypto, whose answer would come from outside the event loop:
 * tests on a fake clock expect the mock to answer before their clock moves.
 *
 * @example
 * ```ts
 * bodyFingerprint(classifyBody('{"b":2,"a":1}')) === bodyFingerprint(classifyBody('{"a":1,"b":2}')); // true
 * ```
 */
export function bodyFingerprint(body: RequestBody): string {
  const canonical =
    body.kind === 'json'
      ? `json:${JSON.stringify(sortKeys(body.value))}`
      : body.kind === 'text'
        ? `text:${body.text}`
        : 'empty';
  return `${canonical.length}:${hash53(canonical)}`;
}

/**
 * A 53-bit hash of `text` (two 32-bit multiply-xorshift lanes, "cyrb53"): not cryptographic, but
 * two bodies of the same length sent under one key collide once in 2^53, which a mock can bear.
 */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
