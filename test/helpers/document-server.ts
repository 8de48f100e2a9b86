/**
 * An https server on this machine for Client ID Metadata Documents, with a certificate made for
 * the run (test/helpers/test-certificate.ts) that the front trusts through `NODE_EXTRA_CA_CERTS`.
 * It records the path of each request it receives; the caller's listener answers.
 */
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { makeTestCertificate, type TestCertificate } from './test-certificate.js';

/** A running document server. */
export interface DocumentServer {
  readonly server: Server;
  /** Its certificate: `certificate.certFile` is for the front's `NODE_EXTRA_CA_CERTS`. */
  readonly certificate: TestCertificate;
  readonly port: number;
  /**
   * Such as `https://127.0.0.1:41234`; `https://localhost:<port>` when it listens on `::`, every
   * address of this machine, which `localhost` reaches whichever address it resolves to first.
   */
  readonly origin: string;
  /** The path of each request received so far, in order. */
  readonly requests: readonly string[];
  /** Ends its connections, closes it and removes its certificate. */
  close(): Promise<void>;
}

/**
 * Makes a certificate for `localhost` and 127.0.0.1 and serves `listener` over https on a free
 * port of `host` (`127.0.0.1`, or `::` for every address of this machine).
 *
 * @example
 * ```ts
 * const documents = await startDocumentServer('127.0.0.1', (req, res) => res.writeHead(404).end());
 * ```
 */
export async function startDocumentServer(
  host: '127.0.0.1' | '::',
  listener: RequestListener,
): Promise<DocumentServer> {
  const certificate = await makeTestCertificate();
  const requests: string[] = [];
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    requests.push(req.url ?? '');
    listener(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, resolve);
    });
  } catch (error) {
    await certificate.remove();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    certificate,
    port,
    origin: `https://${host === '::' ? 'localhost' : host}:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      server.close();
      await certificate.remove();
    },
  };
}
