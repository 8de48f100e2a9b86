/**
 * createMcpHttpHandler configured for Entra ID as its guide says (`scopePrefix`
 * `api://<application id>/`, `readScope` `agentchat.read`, `writeScope` `agentchat.write`,
 * `audience` the application id), against a local issuer whose tokens have Entra ID's v2.0 shape:
 * each tool allowed or refused by the short names in `scp`, or by `roles` for a service caller,
 * and the metadata and challenges naming the prefixed scopes hosts must request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConfigurationError } from '../../src/index.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../../src/mcp/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { type EntraLikeIssuer, startEntraLikeIssuer } from '../helpers/entra-like-issuer.js';

const SERVER_KEY = 'sk_mcp_entra_own_key_51c0d2';
const RESOURCE = 'http://127.0.0.1:8787/mcp';
const METADATA_URL = 'http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp';

let entra: EntraLikeIssuer;
let service: MockServer;
let handler: McpHttpHandler;
let read: string;
let write: string;

beforeAll(async () => {
  entra = await startEntraLikeIssuer();
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
  read = `${entra.scopePrefix}agentchat.read`;
  write = `${entra.scopePrefix}agentchat.write`;
  handler = entraHandler();
});
afterAll(async () => {
  await handler?.close();
  await service?.close();
  await entra?.close();
});

function entraHandler(options: Partial<Parameters<typeof createMcpHttpHandler>[0]> = {}) {
  return createMcpHttpHandler({
    client: new Client({ apiKey: SERVER_KEY, baseUrl: service.baseUrl, maxRetries: 0 }),
    authorizationServer: entra.issuer,
    resource: RESOURCE,
    audience: entra.applicationId,
    scopePrefix: entra.scopePrefix,
    readScope: 'agentchat.read',
    writeScope: 'agentchat.write',
    ...options,
  });
}

let nextId = 1;
/** One JSON-RPC request to /mcp with `token`; the answer and its JSON-RPC result, if any. */
async function rpc(
  token: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
  target = handler,
): Promise<{ response: Response; result: Record<string, unknown> }> {
  const response = await target.fetch(
    new Request(RESOURCE, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    }),
  );
  if (response.status !== 200) return { response, result: {} };
  const text = await response.text();
  const json = text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? '{}');
  return {
    response,
    result: (JSON.parse(json) as { result?: Record<string, unknown> }).result ?? {},
  };
}

async function listed(token: string): Promise<string[]> {
  const { response, result } = await rpc(token, 'tools/list');
  expect(response.status).toBe(200);
  return (result.tools as { name: string }[]).map((tool) => tool.name);
}

const createProject = { name: 'create_project', arguments: { name: 'Entra', agentId: 'a_1' } };

describe('Entra ID v2.0 tokens, with the scope names of its guide', () => {
  it('are described by metadata and a 401 naming the prefixed scopes', async () => {
    const metadata = await handler.fetch(new Request(METADATA_URL));
    expect(await metadata.json()).toMatchObject({
      authorization_servers: [entra.issuer],
      scopes_supported: [read, write],
    });
    const { response } = await rpc(undefined, 'tools/list');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${METADATA_URL}", scope="${read} ${write}"`,
    );
  });

  it("a person's token with scp agentchat.read lists get_project only and is refused a write", async () => {
    const token = await entra.token({ scp: 'agentchat.read' });
    expect(await listed(token)).toEqual(['get_project']);
    const { response } = await rpc(token, 'tools/call', createProject);
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
    expect(challenge).toContain(`scope="${write}"`);
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
  });

  it("a person's token with both short names calls create_project and get_project", async () => {
    const token = await entra.token({ scp: 'agentchat.read agentchat.write' });
    expect(await listed(token)).toEqual(['create_project', 'get_project', 'send_message']);
    const created = await rpc(token, 'tools/call', createProject);
    expect(created.result.isError).toBeFalsy();
    const { id } = created.result.structuredContent as { id: string };
    const got = await rpc(token, 'tools/call', { name: 'get_project', arguments: { id } });
    expect(got.result.structuredContent).toMatchObject({ id, name: 'Entra' });
  });

  it('a scope written prefixed, as some issuers do, counts as well', async () => {
    const token = await entra.token({ scp: write });
    expect(await listed(token)).toEqual(['create_project', 'send_message']);
  });

  it("a service caller's roles count as scopes: the tools of each role", async () => {
    const both = await entra.token({ roles: ['agentchat.read', 'agentchat.write'], azpacr: '1' });
    expect(await listed(both)).toEqual(['create_project', 'get_project', 'send_message']);
    const reader = await entra.token({ roles: ['agentchat.read'] });
    expect(await listed(reader)).toEqual(['get_project']);
    const { response } = await rpc(reader, 'tools/call', {
      name: 'send_message',
      arguments: { projectId: 'proj_1', message: 'Hi' },
    });
    expect(response.status).toBe(403);
  });

  it('names other than the configured ones give no tool', async () => {
    const token = await entra.token({ scp: 'agentchat:read agentchat:write User.Read' });
    expect(await listed(token)).toEqual([]);
  });

  it('a token for another application, or of another tenant, is refused with 401', async () => {
    for (const claims of [
      { scp: 'agentchat.read', aud: 'another-application-id' },
      { scp: 'agentchat.read', iss: 'https://login.microsoftonline.com/other-tenant/v2.0' },
    ]) {
      const { response } = await rpc(await entra.token(claims), 'tools/list');
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    }
  });

  it('a read-only server names only the read scope in its 401', async () => {
    const readOnly = entraHandler({ readOnly: true });
    try {
      const { response } = await rpc(undefined, 'tools/list', {}, readOnly);
      expect(response.headers.get('www-authenticate')).toContain(`scope="${read}"`);
      expect(response.headers.get('www-authenticate')).not.toContain(write);
    } finally {
      await readOnly.close();
    }
  });
});

describe('scope name options', () => {
  it('are refused when no scope could carry them, naming the option', () => {
    for (const [option, value] of [
      ['readScope', 'agentchat read'],
      ['writeScope', ''],
      ['scopePrefix', 'api://"x"/'],
      ['readScope', 42],
    ] as const) {
      let refusal: unknown;
      try {
        entraHandler({ [option]: value } as never);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ConfigurationError);
      expect((refusal as Error).message).toMatch(new RegExp(`^Invalid ${option} \\(--`));
    }
  });

  it('are for an OAuth protected resource only', () => {
    expect(() =>
      createMcpHttpHandler({
        client: new Client({ apiKey: SERVER_KEY, baseUrl: service.baseUrl }),
        scopePrefix: 'api://x/',
      }),
    ).toThrow(/scopePrefix is for an OAuth protected resource: add authorizationServer/);
  });
});
