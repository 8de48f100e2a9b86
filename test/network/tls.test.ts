/**
 * A service behind TLS with a private root CA made by the test (openssl), and one that requires a
 * client certificate: trusted through a dispatcher's `connect` options, through a proxy's tunnel,
 * and refused, when it is not trusted, as an APIConnectionError that names the certificate
 * problem. NODE_EXTRA_CA_CERTS is in environment.test.ts.
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
let proxy: Tinyproxy;

beforeAll(async () => {
  ca = await createPrivateCa();
  [service, mutual, proxy] = await Promise.all([
    startTlsService(ca),
    startTlsService(ca, { requireClientCertificate: true }),
    startTinyproxy(),
  ]);
});
afterAll(async () => {
  await Promise.all([service?.close(), mutual?.close(), proxy?.close()]);
  await ca?.remove();
});

const guide = 'https://github.com/agentchat/agentchat-js/blob/main/docs/networks.md';

/** A client for `target` that tries once, so a refusal is quick. */
const clientFor = (target: TlsService, options: ConstructorParameters<typeof Client>[0] = {}) =>
  new Client({ apiKey: 'sk_tls', baseUrl: target.baseUrl, maxRetries: 0, ...options });

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

  it('left untrusted, fails with APIConnectionError naming the problem and the guide', async () => {
    const error = await clientFor(service)
      .projects.get('p_4')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    const { message } = error as Error;
    expect(message).toMatch(/^GET \/v1\/projects\/p_4 could not reach the service \(TLS: /);
    expect(message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(message).toContain(guide);
    expect(message).toMatch(/ after 1 attempt$/);
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

  it('refuses a client without one: APIConnectionError naming the TLS problem', async () => {
    const dispatcher = new PlatformAgent({ connect: { ca: ca.caCert } });
    const before = mutual.requests().length;
    const error = await clientFor(mutual, { fetchOptions: { dispatcher } })
      .projects.get('p_6')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    // Under TLS 1.3 the server checks after the handshake and closes; undici reports only that.
    expect((error as Error).message).toMatch(
      /\(the server closed the connection before answering, as one that requires a client certificate does; /,
    );
    expect((error as Error).message).toContain(guide);
    expect(mutual.requests()).toHaveLength(before);
    await dispatcher.close();
  });
});
