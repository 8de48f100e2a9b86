/**
 * An application's own `fetch`, and an undici dispatcher, that fail the way careless ones do:
 * their error quotes the request, its Authorization header and form body included, in the message
 * and in fields of its cause. With them, and with `secretForms`, a test looks for a secret
 * everywhere a failed call's text goes.
 */
import { Client } from '../../src/index.js';
import { renderings } from './reliability.js';

/**
 * A `fetch` that never sends, and throws as a careless wrapper does: a `TypeError` whose message
 * quotes the method, the URL and the Authorization header, its cause an error whose message
 * quotes every header (as JSON) and the body, and whose fields hold the headers and a `Request`.
 */
export const quotingFetch: typeof globalThis.fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const headers = Object.fromEntries(new Headers(init?.headers));
  const body = init?.body == null ? '' : await new Response(init.body).text();
  const refusal = Object.assign(
    new Error(`connect ECONNREFUSED; sent headers ${JSON.stringify(headers)} and body ${body}`),
    { code: 'ECONNREFUSED', headers, request: new Request(url, { headers }) },
  );
  throw new TypeError(
    `fetch failed: ${init?.method ?? 'GET'} ${url} (Authorization: ${headers.authorization})`,
    { cause: refusal },
  );
};

/**
 * An undici dispatcher, for `fetchOptions`, whose every request fails with an error quoting its
 * headers, as a logging or signing dispatcher of the application's own might.
 */
export const quotingDispatcher = {
  dispatch(options: { headers?: unknown }): boolean {
    throw new Error(`dispatch refused, headers ${JSON.stringify(options.headers)}`);
  },
};

/** The forms a secret travels in: as it is, JSON-escaped and percent-encoded. */
export function secretForms(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

/** The texts among `texts` that hold `secret` in any of its forms. */
export function textsWithSecret(texts: readonly string[], secret: string): string[] {
  const forms = secretForms(secret);
  return texts.filter((text) => forms.some((form) => text.includes(form)));
}

/** Every rendering of `value` (see `renderings`) that holds `secret` in any of its forms. */
export function shownSecrets(value: unknown, secret: string): string[] {
  return textsWithSecret(renderings(value), secret);
}

/** A key with characters that JSON escapes and a URL encodes, so that each of its forms is searched. */
export const QUOTED_KEY = 'sk_live_"q\\u/p+z=9c1e7a44d0b8';

/**
 * A client of `baseUrl` with {@link QUOTED_KEY} whose every call fails through
 * {@link quotingFetch}, unretried: a framework's tool made over it shows what a model would read
 * of a connection failure.
 */
export function quotingClient(baseUrl: string): Client {
  return new Client({ apiKey: QUOTED_KEY, baseUrl, maxRetries: 0, fetch: quotingFetch });
}
