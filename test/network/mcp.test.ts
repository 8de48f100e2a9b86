/**
 * agentchat/mcp's own fetches to its authorization server (the issuer's metadata, its key set,
 * token introspection) through a company's proxy: `createMcpHttpHandler({ fetchOptions })` with a
 * dispatcher to a real tinyproxy, against a real authorization server (oidc-provider).
 */
import { ProxyAgent } from 'undici7';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, ConfigurationError } from '../../src/index.js';
import { createMcpHttpHandler } from '../../src/mcp/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';

const RESOURCE = 'http://127.0.0.1:8787/mcp';

let proxy: Tinyproxy;
let issuer: AuthorizationServer;
let service: MockServer;
/** One per test: undici keeps a tunnel open, and a later test's requests would not show. */
let dispatcher: ProxyAgent;

beforeAll(async () => {
  [proxy, issuer, service] = await Promise.all([
    startTinyproxy(),
    startAuthorizationServer(),
    startMockServer(),
  ]);
  issuer.addMcpResource(RESOURCE);
});
beforeEach(() => {
  dispatcher = new ProxyAgent(proxy.url);
});
afterEach(() => dispatcher.close());
afterAll(async () => {
  await Promise.all([proxy?.close(), issuer?.close(), service?.close()]);
});

const handlerWith = (options: Partial<Parameters<typeof createMcpHttpHandler>[0]> = {}) =>
  createMcpHttpHandler({
    client: new Client({ apiKey: 'sk_mcp', baseUrl: service.baseUrl }),
    authorizationServer: issuer.issuer,
    resource: RESOURCE,
    fetchOptions: { dispatcher },
    ...options,
  });

/** tools/list with `token`, as a host's request. */
const listTools = (handler: ReturnType<typeof createMcpHttpHandler>, token: string) =>
  handler.fetch(
    new Request(RESOURCE, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    }),
  );

const toIssuer = (from: number) =>
  proxy
    .requests()
    .slice(from)
    .filter((request) => request.includes(new URL(issuer.issuer).host));

describe("createMcpHttpHandler's fetchOptions", () => {
  it('send the issuer metadata and key set fetches through the proxy', async () => {
    const handler = handlerWith();
    try {
      const from = proxy.requests().length;
      const paths = issuer.paths.length;
      const token = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
      const response = await listTools(handler, token);
      expect(response.status).toBe(200);
      const fetched = issuer.paths.slice(paths);
      expect(fetched).toContain('/.well-known/oauth-authorization-server');
      // The token request above went direct; the metadata and the key set, through the proxy.
      await expect.poll(() => toIssuer(from).length).toBeGreaterThanOrEqual(2);
    } finally {
      await handler.close();
    }
  });

  it('send introspection through the proxy', async () => {
    const handler = handlerWith({ introspection: issuer.mcpClients.introspector });
    try {
      const token = await issuer.issueToken(issuer.mcpClients.opaque, RESOURCE);
      const from = proxy.requests().length;
      expect((await listTools(handler, token)).status).toBe(200);
      await expect.poll(() => toIssuer(from).length).toBeGreaterThanOrEqual(1);
    } finally {
      await handler.close();
    }
  });

  it('refuse a key the SDK owns, and come only with authorizationServer', () => {
    expect(() => handlerWith({ fetchOptions: { signal: null } as never })).toThrow(
      ConfigurationError,
    );
    expect(() => handlerWith({ fetchOptions: { signal: null } as never })).toThrow(
      /fetchOptions\.signal: use a call's signal option/,
    );
    expect(() =>
      createMcpHttpHandler({ clientOptions: { baseUrl: service.baseUrl }, fetchOptions: {} }),
    ).toThrow(/fetchOptions is for an OAuth protected resource: add authorizationServer/);
  });
});
