/**
 * Reads a response's body whole, up to a cap: what a server that streams without end, or one taken
 * over, sends past it is never held. Shared by the fetches that do not go through the transport
 * (agentchat/mcp's key sets and introspection, the identity sources' platform endpoints).
 */

/**
 * The body's bytes, or `undefined` when it is longer than `limit` (declared so, or once that many
 * have come): the stream is then cancelled.
 *
 * @example
 * ```ts
 * const body = await readCapped(await fetch(url), 65_536);
 * if (body === undefined) throw new Error('too long');
 * ```
 */
export async function readCapped(
  response: Response,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
