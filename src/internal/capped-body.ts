/**
 * A response body read whole, up to a limit: the one read the transport's attempts and
 * agentchat/mcp's fetches to an authorization server and an identity endpoint share, so that none
 * holds more than the limit in memory, whatever a server sends.
 *
 * The counting is ky's `maxResponseSize` (ky 2.2): bytes counted after content decoding, the
 * stream cancelled once past the limit. The body is handed to ky through a `fetch` that answers
 * with the response already received, so that the read stays where the SDK needs it: inside the
 * attempt, under the attempt's timeout, and a connection dropped mid-body is a failure the retry
 * policy sees. ky's limit costs about 90 µs of CPU per response on Node.js (a `TransformStream`
 * and a rebuilt `Response`; docs/maintainers/performance.md, "ky 2.2").
 */
import ky, { isResponseSizeError } from 'ky';

/**
 * A ky that sends nothing: each call's `fetch` hands it a response already received, and it reads
 * the body under `maxResponseSize`. No retry, no timeout of its own (the caller's signal and
 * deadline bound the read), no status refused.
 */
const bodyReader = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });

/**
 * The URL of the request ky makes for its records of the exchange and never sends: not the real
 * one, which may carry a secret in its query and would then sit in ky's error of a dropped body.
 */
const PLACEHOLDER_URL = 'http://response.invalid/';

/**
 * The body's bytes, counted after content decoding (fetch decodes gzip and deflate itself);
 * `undefined`, the stream cancelled, once past `limit`. A `Content-Length` already over the limit
 * gives `undefined` before reading, unless the body is encoded and the length is the encoded
 * one's: what a server announces as too large is not read at all.
 *
 * @throws what the stream throws while read (a connection dropped mid-body).
 * @example
 * ```ts
 * const bytes = await readCappedBody(response, 65_536);
 * if (bytes === undefined) throw new Error('larger than 64 KiB');
 * const text = new TextDecoder().decode(bytes);
 * ```
 */
export async function readCappedBody(
  response: Response,
  limit: number,
): Promise<Uint8Array | undefined> {
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > limit && !response.headers.has('content-encoding')) {
    response.body?.cancel().catch(() => {});
    return undefined;
  }
  // The response ky answers with is the same one, its body piped through ky's count; read here
  // rather than through ky's `.arrayBuffer()` shortcut, which would race the read against a
  // timeout this ky does not have and wrap a dropped connection in an error of its own.
  const counted = await bodyReader(PLACEHOLDER_URL, {
    fetch: () => Promise.resolve(response),
    maxResponseSize: limit,
  });
  try {
    return new Uint8Array(await counted.arrayBuffer());
  } catch (error) {
    if (isResponseSizeError(error)) return undefined;
    throw error;
  }
}
