/** A port nothing listens on now, for a program a test starts that must be told its port. */
import { createServer } from 'node:net';

/** The system's pick for a loopback listener that is closed at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
