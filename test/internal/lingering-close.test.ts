/**
 * The lingering close (src/internal/lingering-close.ts) gets a 413 to a client that is busy
 * sending a body and slow to read, as a client on a loaded machine is: the server must not reset
 * the connection while the answer still waits, unread, in the client's kernel.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { closeUnfinishedLingeringly } from '../../src/internal/lingering-close.js';
import { closedBy, openSocket, streamBody } from '../helpers/raw-http.js';
import { MiB } from '../helpers/server-process.js';

/** A server that refuses every body 413 at once, closing as agentchat-mcp --http does. */
async function refusingServer() {
  const server = createServer((request, response) => {
    lingerAfter(request);
    response.writeHead(413, { connection: 'close' }).end();
  });
  const lingerAfter = closeUnfinishedLingeringly(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/` };
}

it('lets a client that goes on sending 100 MB, and reads only a moment later, read the 413', async () => {
  const { server, url } = await refusingServer();
  try {
    const socket = await openSocket(url);
    const answer = closedBy(socket);
    // Not reading, as a client not scheduled for a moment: the answer waits in its kernel. The
    // moment is what the test models, so it is real time, a fifth of the linger.
    socket.pause();
    socket.write('POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100000000\r\n\r\n');
    const sent = streamBody(socket, 100_000_000, false);
    await delay(200);
    socket.resume();

    // A server that destroys the connection once it has discarded its few MiB resets it under
    // the client's writes within milliseconds; the client's next write fails (EPIPE), and the
    // 413, unread, is lost with the socket: status 0.
    expect((await answer).status).toBe(413);
    // Cut off all the same: what was sent is the discarded MiB and what the kernels' buffers held.
    expect(await sent).toBeLessThan(20 * MiB);
  } finally {
    server.close();
  }
});
