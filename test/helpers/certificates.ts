/**
 * A private certificate authority made for a test, as a company's own root CA: its certificate,
 * a server certificate it signs for 127.0.0.1 and localhost (and one that expired in 2020), and a
 * client certificate for mutual TLS. Made by Debian's `openssl` in a folder of their own, removed
 * by `remove()`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM texts, and the CA certificate's path (for NODE_EXTRA_CA_CERTS). */
export interface PrivateCa {
  readonly caCert: string;
  readonly caCertPath: string;
  readonly serverKey: string;
  readonly serverCert: string;
  /** The same server's certificate, valid only on 1 January 2020. */
  readonly expiredServerCert: string;
  readonly clientKey: string;
  readonly clientCert: string;
  /** The client certificate's and key's paths, for a program that reads them from files. */
  readonly clientCertPath: string;
  readonly clientKeyPath: string;
  /** The client certificate's subject common name, which a server requiring one reads. */
  readonly clientName: string;
  remove(): Promise<void>;
}

/** Makes the CA and the certificates it signs (EC P-256 keys: quick to make). */
export async function createPrivateCa(): Promise<PrivateCa> {
  const dir = await mkdtemp(join(tmpdir(), 'agentchat-ca-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await openssl(
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=agentchat test root CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  const signed = async (name: string, subject: string, extensions: string) => {
    await openssl(
      'req',
      ...newKey,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.csr`),
      '-subj',
      subject,
    );
    await writeFile(at(`${name}.ext`), extensions);
    await openssl(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at(`${name}.pem`),
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
    );
  };
  const clientName = 'agentchat-test-client';
  await signed(
    'server',
    '/CN=127.0.0.1',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  await signed('client', `/CN=${clientName}`, 'extendedKeyUsage=clientAuth\n');
  // An expired one: `openssl x509` takes no start date, `openssl ca` does, with a database of its own.
  await writeFile(
    at('ca.cnf'),
    '[ca]\ndefault_ca = test\n[test]\ndatabase = index.txt\nnew_certs_dir = .\ncertificate = ca.pem\n' +
      'private_key = ca.key\nserial = serial\ndefault_md = sha256\npolicy = any\n[any]\ncommonName = supplied\n',
  );
  await writeFile(at('index.txt'), '');
  await writeFile(at('serial'), '1000\n');
  await openssl(
    'ca',
    '-batch',
    '-config',
    at('ca.cnf'),
    '-in',
    at('server.csr'),
    '-out',
    at('expired.pem'),
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20200102000000Z',
    '-notext',
    '-extfile',
    at('server.ext'),
  );
  const text = (name: string) => readFile(at(name), 'utf8');
  return {
    caCert: await text('ca.pem'),
    caCertPath: at('ca.pem'),
    serverKey: await text('server.key'),
    serverCert: await text('server.pem'),
    expiredServerCert: await text('expired.pem'),
    clientKey: await text('client.key'),
    clientCert: await text('client.pem'),
    clientCertPath: at('client.pem'),
    clientKeyPath: at('client.key'),
    clientName,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
