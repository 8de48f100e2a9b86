/**
 * A self-signed certificate for `localhost` and 127.0.0.1, made by openssl for one test run: what
 * an https server in a test serves, and what a child process trusts through
 * `NODE_EXTRA_CA_CERTS`. Nothing outside its temporary folder is touched; `remove()` removes it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A certificate and its key, as PEM, and the file holding the certificate. */
export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
  /** The certificate's file, for `NODE_EXTRA_CA_CERTS`. */
  readonly certFile: string;
  /** Removes its folder. */
  remove(): Promise<void>;
}

export async function makeTestCertificate(): Promise<TestCertificate> {
  const folder = await mkdtemp(join(tmpdir(), 'agentchat-cert-'));
  const keyFile = join(folder, 'key.pem');
  const certFile = join(folder, 'cert.pem');
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost'],
    ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
  ]);
  return {
    key: await readFile(keyFile, 'utf8'),
    cert: await readFile(certFile, 'utf8'),
    certFile,
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
