/**
 * A `fetch` for what the token verifier asks of the authorization server (its key set, token
 * introspection): a server on the internet, or one taken over, must not hold the verifier up, fill
 * its memory or send it elsewhere. No redirect is followed (a 3xx is answered as it came, and the
 * caller refuses anything but a 2xx), each exchange is bounded in time, and the body read is
 * capped by the transport's own read: past the cap the exchange fails, as a server down would.
 * The server's `fetchOptions` (a proxy, a private CA) go with every one.
 */
import { type FetchOptions, withFetchOptions } from '../core/fetch-options.js';
import { readCappedBody } from '../internal/capped-body.js';

/** A key set or an introspection answer is a few KiB; 256 KiB is far past any real one. */
export const MAX_DOCUMENT_BYTES = 262_144;

/** How long one exchange with the authorization server may take, body included. */
export const DOCUMENT_TIMEOUT_MS = 10_000;

/** `fetch`'s signature, as jose's `customFetch` and the introspection call use it. */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` with no redirect followed, a timeout (joined to the caller's signal), `fetchOptions`
 * merged into each init, and the body read whole up to {@link MAX_DOCUMENT_BYTES}, then handed back
 * as a fresh `Response`. The fetch it returns throws a `TypeError` when the body is past the cap,
 * and the abort's reason when out of time.
 *
 * @example
 * ```ts
 * const fetchDocument = boundedFetch({ dispatcher: proxy });
 * const keys = await (await fetchDocument('https://auth.example.com/jwks')).json();
 * ```
 */
export function boundedFetch(fetchOptions?: FetchOptions): FetchLike {
  return async (url, init = {}) => {
    const timeout = AbortSignal.timeout(DOCUMENT_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(
      url,
      withFetchOptions({ ...init, redirect: 'manual', signal }, fetchOptions),
    );
    const body = await readCappedBody(response, MAX_DOCUMENT_BYTES);
    if (body === undefined)
      throw new TypeError(`the response is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    return new Response(body as Uint8Array<ArrayBuffer>, {
      status: response.status,
      headers: response.headers,
    });
  };
}
