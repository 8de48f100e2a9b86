/**
 * A response body read whole, up to a limit, by ky's own `maxResponseSize`: the one read the
 * transport's attempts, the identity sources and agentchat/mcp's fetches to an authorization server
 * share, so that none holds more than the limit in memory, whatever a server sends.
 *
 * ky applies `maxResponseSize` to what its `fetch` answers, after the attempt's timeout is over;
 * the transport reads a body inside the attempt instead (one deadline per attempt, a connection
 * dropped mid-body retried). So the read goes through a second ky of its own, which "fetches" the
 * response it is handed and caps its body: ky counts the bytes after content decoding, cancels
 * the stream past the limit and throws its `ResponseSizeError`.
 */
import ky, { isResponseSizeError, type Options } from 'ky';

/** Options of a read: the response to read travels among the options ky hands its `fetch`. */
type ReadOptions = Options & { readonly response: Response };

/** A ky that sends nothing: its `fetch` answers the response a read hands it, as it came. */
const reader = ky.create({
  retry: 0,
  timeout: false,
  throwHttpErrors: false,
  fetch: (_request, init) => Promise.resolve((init as ReadOptions).response),
});

/** What ky's `Request` is made for; never fetched. */
const NOWHERE = 'http://localhost/';

/**
 * The body's text (UTF-8), read as a stream and counted after content decoding (fetch decodes
 * gzip, deflate and brotli itself); `undefined`, the stream cancelled, once past `limit`. A
 * `Content-Length` already over the limit gives `undefined` before reading, unless the body is
 * encoded and the length is the encoded one's: a server that sends the headers and stalls is not
 * waited for.
 *
 * @throws what the stream throws while read (a connection dropped mid-body, an abort).
 * @example
 * ```ts
 * const text = await readLimitedBody(response, 65_536);
 * if (text === undefined) throw new Error('larger than 64 KiB');
 * ```
 */
export async function readLimitedBody(
  response: Response,
  limit: number,
): Promise<string | undefined> {
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > limit && !response.headers.has('content-encoding')) {
    response.body?.cancel().catch(() => {});
    return undefined;
  }
  const options: ReadOptions = { response, maxResponseSize: limit };
  try {
    return await (await reader(NOWHERE, options)).text();
  } catch (error) {
    if (isResponseSizeError(error)) return undefined;
    throw error;
  }
}
