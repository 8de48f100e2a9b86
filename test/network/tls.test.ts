/**
 * A service behind TLS with a private root CA made by the test (openssl), and one that requires a
 * client certificate: trusted through a dispatcher's `connect` options, through a proxy's tunnel,
 * and refused, when it is not trusted, as an APIConnectionError that names the certificate
 * problem, after one attempt (one connection counted at the server), since no retry can mend it.
 * NODE_EXTRA_CA_CERTS is in environment.test.ts.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { Agent as PlatformAgent, ProxyAgent as PlatformProxyAgent } from 'undici7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, Client } from '../../src/index.js';
import { createPrivateCa, type PrivateCa } from '../helpers/certificates.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';
import { startTlsService, type TlsService } from '../helpers/tls-service.js';

let ca: PrivateCa;
let service: TlsService;
let mutual: TlsService;
let expired: TlsService;
let proxy: Tinyproxy;

beforeAll(async () => {
  ca = await createPrivateCa();
  [service, mutual, expired, proxy] = await Promise.all([
    startTlsService(ca),
    startTlsService(ca, { requireClientCertificate: true }),
    startTlsService(ca, { expired: true }),
    startTinyproxy(),
  ]);
});
afterAll(async () => {
  await Promise.all([service?.close(), mutual?.close(), expired?.close(), proxy?.close()]);
  await ca?.remove();
});

const guide = 'https://github.com/agentchat/agentchat-js/blob/main/docs/networks.md';

/** A client for `target`, with the retries every client has by default. */
const clientFor = (target: TlsService, options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ apiKey: 'sk_tls', baseUrl: target.baseUrl, ...options });

/**
 * Runs `call` against `target` and resolves to its error and the connections the server accepted
 * meanwhile: a failure no retry can mend is met once.
 */
async function refused(target: TlsService, call: () => Promise<unknown>) {
  const before = target.connections();
  const error = await call().catch((caught: unknown) => caught);
  return { error: error as Error, connections: target.connections() - before };
}

describe('a private CA', () => {
  it("is trusted through the platform's fetch and a dispatcher with connect.ca", async () => {
    const dispatcher = new PlatformAgent({ connect: { ca: ca.caCert } });
    const project = await clientFor(service, { fetchOptions: { dispatcher } }).projects.get('p_1');
    expect(project).toMatchObject({ id: 'p_1', name: 'Behind TLS' });
    await dispatcher.close();
  });

  it("is trusted through undici's own fetch and its Agent", async () => {
    const dispatcher = new Agent({ connect: { ca: ca.caCert } });
    const client = clientFor(service, {
      fetch: undiciFetch as unknown as typeof fetch,
      fetchOptions: { dispatcher },
    });
    expect((await client.projects.get('p_2')).id).toBe('p_2');
    await dispatcher.close();
  });

  it("is trusted through a proxy's tunnel, which sees only the CONNECT", async () => {
    const from = proxy.requests().length;
    const dispatcher = new PlatformProxyAgent({ uri: proxy.url, requestTls: { ca: ca.caCert } });
    expect(
      (await clientFor(service, { fetchOptions: { dispatcher } }).projects.get('p_3')).id,
    ).toBe('p_3');
    await expect.poll(() => proxy.requests().slice(from)).toEqual([`CONNECT ${service.host}`]);
    await dispatcher.close();
  });

  it('left untrusted, fails at once with APIConnectionError naming the problem and the guide', async () => {
    const { error, connections } = await refused(service, () =>
      clientFor(service).projects.get('p_4'),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(/^GET \/v1\/projects\/p_4 could not reach the service \(TLS: /);
    expect(error.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(error.message).toContain(guide);
    expect(error.message).toMatch(/ after 1 attempt$/);
    expect(connections).toBe(1);
  });

  it('out of date, fails at once naming the expiry', async () => {
    const dispatcher = new PlatformAgent({ connect: { ca: ca.caCert } });
    const { error, connections } = await refused(expired, () =>
      clientFor(expired, { fetchOptions: { dispatcher } }).projects.get('p_8'),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toContain('(TLS: CERT_HAS_EXPIRED, ');
    expect(error.message).toContain(guide);
    expect(error.message).toMatch(/ after 1 attempt$/);
    expect(connections).toBe(1);
    await dispatcher.close();
  });

  it('made for another host name, fails at once naming the mismatch', async () => {
    // The certificate names 127.0.0.1 and localhost; the TLS name checked is another.
    const dispatcher = new PlatformAgent({ connect: { ca: ca.caCert, servername: 'other.test' } });
    const { error, connections } = await refused(service, () =>
      clientFor(service, { fetchOptions: { dispatcher } }).projects.get('p_7'),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toContain('(TLS: ERR_TLS_CERT_ALTNAME_INVALID, ');
    expect(error.message).toContain(guide);
    expect(error.message).toMatch(/ after 1 attempt$/);
    expect(connections).toBe(1);
    await dispatcher.close();
  });
});

describe('a service that requires a client certificate', () => {
  it('accepts the one a dispatcher presents', async () => {
    const dispatcher = new PlatformAgent({
      connect: { ca: ca.caCert, cert: ca.clientCert, key: ca.clientKey },
    });
    const before = mutual.requests().length;
    expect((await clientFor(mutual, { fetchOptions: { dispatcher } }).projects.get('p_5')).id).toBe(
      'p_5',
    );
    expect(
      mutual
        .requests()
        .slice(before)
        .map((request) => request.clientName),
    ).toEqual([ca.clientName]);
    await dispatcher.close();
  });

  it('refuses a client without one: APIConnectionError naming the TLS problem, at once', async () => {
    const dispatcher = new PlatformAgent({ connect: { ca: ca.caCert } });
    const before = mutual.requests().length;
    const { error, connections } = await refused(mutual, () =>
      clientFor(mutual, { fetchOptions: { dispatcher } }).projects.get('p_6'),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    // Under TLS 1.3 the server checks after the handshake and closes; undici reports only that.
    expect(error.message).toMatch(
      /\(the server closed the connection before answering, as one that requires a client certificate does; /,
    );
    expect(error.message).toContain(guide);
    expect(error.message).toMatch(/ after 1 attempt$/);
    expect(connections).toBe(1);
    expect(mutual.requests()).toHaveLength(before);
    await dispatcher.close();
  });
});
