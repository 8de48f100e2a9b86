/**
 * A response body read whole, up to a limit: the one read the transport's attempts and
 * agentchat/mcp's fetches to an authorization server share, so that neither holds more than the
 * limit in memory, whatever a server sends. No ky and no transport here: agentchat/mcp's build
 * takes this file as it is.
 *
 * Not ky 2.2's `maxResponseSize`, which does the same count: ky applies it to what its `fetch`
 * answers, after the attempt's timeout is over, where a dropped connection is not retried; read
 * inside the attempt through a second ky, it made `projects.get` cost 423 µs of CPU instead of
 * 181 (network stubbed out), and even in ky's own pipeline it nearly doubles ky's cost per call
 * (136 to 274 µs, 93 to 168 in a second run): a `TransformStream` and a rebuilt `Response` per response
 * (docs/maintainers/performance.md, "ky 2.2").
 */

/**
 * The body's bytes, read as a stream and counted after content decoding (fetch decodes gzip and
 * deflate itself); `undefined`, the stream cancelled, once past `limit`. A `Content-Length`
 * already over the limit gives `undefined` before reading, unless the body is encoded and the
 * length is the encoded one's. A body in one chunk (most are) is that chunk, uncopied.
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
  const body = response.body;
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > limit && !response.headers.has('content-encoding')) {
    body?.cancel().catch(() => {});
    return undefined;
  }
  if (!body) return EMPTY;
  const reader = body.getReader();
  let first: Uint8Array | undefined;
  let rest: Uint8Array[] | undefined;
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    if (!first) first = value;
    else if (rest) rest.push(value);
    else rest = [value];
  }
  if (!first) return EMPTY;
  if (!rest) return first;
  const whole = new Uint8Array(size);
  whole.set(first);
  let offset = first.byteLength;
  for (const chunk of rest) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

const EMPTY = new Uint8Array(0);
