/**
 * The bridge from the handler to the engine's loopback listener, over kept-alive connections: a
 * connection the listener's server closes as idle just as the next request goes out on it (Node's
 * documented race, frequent on a busy host) is reset before any answer; the bridge sends that
 * request again, once, on a new connection, rather than failing it with ECONNRESET.
 */
import { describe, expect, it } from 'vitest';
import { startBridge } from '../../../src/mcp/front/bridge.js';

describe('the bridge to the loopback listener', () => {
  it('sends a request again when its reused connection is reset before any answer', async () => {
    const seen: string[] = [];
    const bridge = await startBridge((req, res) => {
      seen.push(req.url ?? '');
      // The second request arrives on the first one's kept-alive connection, which is closed
      // unanswered, as a server's idle timeout closes it at that very moment.
      if (seen.length === 2) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`answer ${seen.length}`);
    }, new URL('http://127.0.0.1:8787'));
    try {
      const first = await bridge.fetch(new Request('http://127.0.0.1:8787/one'), '192.0.2.1');
      expect(await first.text()).toBe('answer 1');
      const second = await bridge.fetch(new Request('http://127.0.0.1:8787/two'), '192.0.2.1');
      expect(await second.text()).toBe('answer 3');
      expect(seen).toEqual(['/one', '/two', '/two']);
    } finally {
      await bridge.close();
    }
  });

  it('fails a request reset on a new connection: nothing to retry', async () => {
    const bridge = await startBridge((req) => {
      req.socket.destroy();
    }, new URL('http://127.0.0.1:8787'));
    try {
      await expect(
        bridge.fetch(new Request('http://127.0.0.1:8787/one'), '192.0.2.1'),
      ).rejects.toMatchObject({ code: 'ECONNRESET' });
    } finally {
      await bridge.close();
    }
  });
});
