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

/**
 * The body as the request log shows it: the JSON value, the raw text, or `undefined`.
 *
 * @example
 * ```ts
 * recordedBody(classifyBody('')); // undefined
 * ```
 */
export function recordedBody(body: RequestBody): unknown {
  if (body.kind === 'json') return body.value;
  if (body.kind === 'text') return body.text;
  return undefined;
}

/**
 * A string equal for equal bodies: JSON with object keys sorted, so `{"a":1,"b":2}` and
 * `{"b":2,"a":1}` count as the same request when an Idempotency-Key is reused.
 *
 * @example
 * ```ts
 * bodyFingerprint(classifyBody('{"b":2,"a":1}')) === bodyFingerprint(classifyBody('{"a":1,"b":2}')); // true
 * ```
 */
export function bodyFingerprint(body: RequestBody): string {
  if (body.kind === 'json') return `json:${JSON.stringify(sortKeys(body.value))}`;
  if (body.kind === 'text') return `text:${body.text}`;
  return 'empty';
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
