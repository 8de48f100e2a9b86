/**
 * What Node.js does with no code: a program set up by its environment alone, run as its own
 * process, behind a real proxy (tinyproxy) with `NODE_USE_ENV_PROXY=1` and the proxy variables,
 * and trusting a private CA through `NODE_EXTRA_CA_CERTS`. On this suite's Node.js (22.23); the
 * packaging suite runs the same on each release of the runtime matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { createPrivateCa, type PrivateCa } from '../helpers/certificates.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';
import { startTlsService, type TlsService } from '../helpers/tls-service.js';

let proxy: Tinyproxy;
let mock: MockServer;
let issuer: AuthorizationServer;
let ca: PrivateCa;
let tls: TlsService;

beforeAll(async () => {
  ca = await createPrivateCa();
  [proxy, mock, issuer, tls] = await Promise.all([
    startTinyproxy(),
    startMockServer(),
    startAuthorizationServer(),
    startTlsService(ca),
  ]);
});
afterAll(async () => {
  await Promise.all([proxy?.close(), mock?.close(), issuer?.close(), tls?.close()]);
  await ca?.remove();
});

const program = new URL('fixtures/env-client.ts', import.meta.url).pathname;

/** Runs the program with only these variables (and PATH), and reads its outcome. */
async function run(env: Record<string, string>): Promise<{ outcome: string; message?: string }> {
  const result = await runProcess(process.execPath, [...tsxLoader, program], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) throw new Error(`no outcome:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(line);
}

const hostOf = (url: string) => new URL(url).host;
const through = (host: string, from: number) =>
  proxy
    .requests()
    .slice(from)
    .filter((request) => request.includes(host));

describe('NODE_USE_ENV_PROXY=1', () => {
  it('sends the service and the OAuth discovery and token requests through HTTP_PROXY', async () => {
    const from = proxy.requests().length;
    const outcome = await run({
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: proxy.url,
      AGENTCHAT_BASE_URL: mock.baseUrl,
      AGENTCHAT_ISSUER: issuer.issuer,
      AGENTCHAT_CLIENT_ID: issuer.secretClient.clientId,
      AGENTCHAT_CLIENT_SECRET: issuer.secretClient.clientSecret,
      RESOURCE: issuer.resource,
    });
    expect(outcome).toEqual({ outcome: 'answered', message: expect.any(String) });
    await expect.poll(() => through(hostOf(mock.url), from)).toHaveLength(1);
    // Discovery's well-known document, then the token request.
    await expect.poll(() => through(hostOf(issuer.issuer), from).length).toBeGreaterThanOrEqual(2);
  });

  it('reaches a NO_PROXY host directly', async () => {
    const from = proxy.requests().length;
    const outcome = await run({
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: proxy.url,
      NO_PROXY: hostOf(issuer.issuer),
      AGENTCHAT_BASE_URL: mock.baseUrl,
      AGENTCHAT_ISSUER: issuer.issuer,
      AGENTCHAT_CLIENT_ID: issuer.secretClient.clientId,
      AGENTCHAT_CLIENT_SECRET: issuer.secretClient.clientSecret,
      RESOURCE: issuer.resource,
    });
    expect(outcome.outcome).toBe('answered');
    await expect.poll(() => through(hostOf(mock.url), from)).toHaveLength(1);
    expect(through(hostOf(issuer.issuer), from)).toEqual([]);
  });

  it('tunnels https through HTTPS_PROXY to a host whose CA NODE_EXTRA_CA_CERTS adds', async () => {
    const from = proxy.requests().length;
    const outcome = await run({
      NODE_USE_ENV_PROXY: '1',
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: ca.caCertPath,
      AGENTCHAT_BASE_URL: tls.baseUrl,
      AGENTCHAT_API_KEY: 'sk_env',
    });
    expect(outcome).toEqual({ outcome: 'answered', name: 'Behind TLS' });
    await expect.poll(() => through(tls.host, from)).toEqual([`CONNECT ${tls.host}`]);
  });

  it('is needed: without it the SDK reads no proxy variable and goes direct', async () => {
    const from = proxy.requests().length;
    const logged = mock.service.requestLog().length;
    const outcome = await run({
      HTTP_PROXY: proxy.url,
      AGENTCHAT_BASE_URL: mock.baseUrl,
      AGENTCHAT_API_KEY: 'sk_env',
    });
    expect(outcome.outcome).toBe('answered');
    expect(proxy.requests().slice(from)).toEqual([]);
    expect(mock.service.requestLog()).toHaveLength(logged + 1);
  });
});

describe('NODE_EXTRA_CA_CERTS', () => {
  it('trusts the private CA for every request of the process', async () => {
    const before = tls.requests().length;
    const outcome = await run({
      NODE_EXTRA_CA_CERTS: ca.caCertPath,
      AGENTCHAT_BASE_URL: tls.baseUrl,
      AGENTCHAT_API_KEY: 'sk_env',
    });
    expect(outcome).toEqual({ outcome: 'answered', name: 'Behind TLS' });
    expect(tls.requests()).toHaveLength(before + 1);
  });

  it('left out, the certificate problem is named: APIConnectionError with its code', async () => {
    const outcome = await run({ AGENTCHAT_BASE_URL: tls.baseUrl, AGENTCHAT_API_KEY: 'sk_env' });
    expect(outcome.outcome).toBe('APIConnectionError');
    expect(outcome.message).toMatch(
      /\(TLS: UNABLE_TO_VERIFY_LEAF_SIGNATURE, .*docs\/networks\.md\)/,
    );
  });
});
