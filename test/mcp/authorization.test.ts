/**
 * createMcpHttpHandler as an OAuth 2.1 protected resource, against a real authorization server
 * (oidc-provider on 127.0.0.1 issuing RFC 9068 JWT access tokens, and opaque ones to introspect)
 * and the mock service: who gets in, who is refused, and that the service only ever sees the
 * server's own key.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentChatError, type Caller, Client } from '../../src/index.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../../src/mcp/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { allToolNames, callTool, listedToolNames } from '../helpers/mcp-client.js';
import { recordingLogger } from '../helpers/reliability.js';

const SERVER_KEY = 'sk_mcp_own_key_7d1e4a';
const RESOURCE = 'http://127.0.0.1:8787/mcp';
const METADATA_URL = 'http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp';

let issuer: AuthorizationServer;
let service: MockServer;
let handler: McpHttpHandler;
let callers: (Caller | undefined)[];
let logger: ReturnType<typeof recordingLogger>;

function serverClient(): Client {
  return new Client({
    apiKey: SERVER_KEY,
    baseUrl: service.baseUrl,
    maxRetries: 0,
    middleware: [
      (request, next, context) => {
        callers.push(context.caller);
        return next(request);
      },
    ],
  });
}

function makeHandler(options: Partial<Parameters<typeof createMcpHttpHandler>[0]> = {}) {
  return createMcpHttpHandler({
    client: serverClient(),
    authorizationServer: issuer.issuer,
    resource: RESOURCE,
    logger,
    ...options,
  });
}

/** A JSON-RPC POST to the handler's /mcp with `token`, as a host's first request would be. */
function post(target: McpHttpHandler, token: string | undefined, body: unknown): Promise<Response> {
  return target.fetch(
    new Request(RESOURCE, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    }),
  );
}

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const callOf = (name: string, args: Record<string, unknown>, id = 2) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The official MCP client on the handler, sending `token`. */
async function connect(target: McpHttpHandler, token: string): Promise<McpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(RESOURCE), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: (url, init) => target.fetch(new Request(url, init)),
  });
  const mcp = new McpClient({ name: 'agentchat-tests', version: '1.0.0' });
  await mcp.connect(transport);
  return mcp;
}

/** A token's parts, to forge others from. */
function partsOf(token: string): [string, string, string] {
  return token.split('.') as [string, string, string];
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** The number of verified tokens the handler keeps, through its test-only hook. */
const cacheSizeOf = (target: McpHttpHandler) =>
  (target as unknown as Record<symbol, number>)[Symbol.for('agentchat.mcp.verifiedTokens')];

beforeAll(async () => {
  issuer = await startAuthorizationServer();
  issuer.addMcpResource(RESOURCE);
  issuer.addMcpResource('http://other.example.test/mcp');
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
}, 30_000);
afterAll(async () => {
  await service?.close();
  await issuer?.close();
});
beforeEach(() => {
  service.service.reset();
  callers = [];
  logger = recordingLogger();
  handler = makeHandler();
});
afterEach(async () => {
  vi.useRealTimers();
  await handler.close();
});

describe('the protected resource metadata', () => {
  it('is served at the path-suffixed URL and at the root form', async () => {
    const expected = {
      resource: RESOURCE,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['agentchat:read', 'agentchat:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Project and Agent Chat',
    };
    for (const url of [
      METADATA_URL,
      'http://127.0.0.1:8787/.well-known/oauth-protected-resource',
    ]) {
      const response = await handler.fetch(new Request(url));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expected);
    }
  });

  it('is named by the 401 a request without a token gets, which names no error', async () => {
    const response = await post(handler, undefined, listTools);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${METADATA_URL}", scope="agentchat:read agentchat:write"`,
    );
    expect(service.service.requests).toEqual([]);
  });

  it('names in the 401 only the scopes of the tools offered', async () => {
    for (const [scope, expected] of [
      [{ readOnly: true }, 'agentchat:read'],
      [{ tools: ['send_message'] }, 'agentchat:write'],
      [{ tools: ['get_project', 'create_project'] }, 'agentchat:read agentchat:write'],
    ] as const) {
      const scoped = makeHandler(scope);
      try {
        const response = await post(scoped, undefined, listTools);
        expect(response.headers.get('www-authenticate')).toBe(
          `Bearer resource_metadata="${METADATA_URL}", scope="${expected}"`,
        );
        const refused = await post(scoped, 'not-a-jwt', listTools);
        expect(refused.status).toBe(401);
        expect(refused.headers.get('www-authenticate')).toContain(`scope="${expected}"`);
      } finally {
        await scoped.close();
      }
    }
  });
});

describe('a valid token', () => {
  it("lists and calls the tools, the service seeing only the server's own key", async () => {
    const token = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
    const mcp = await connect(handler, token);
    try {
      expect(await listedToolNames(mcp)).toEqual(allToolNames);
      const created = await callTool(mcp, 'create_project', { name: 'Remote', agentId: 'agent_1' });
      expect(created.isError).toBeFalsy();
      const { id } = created.structuredContent as { id: string };
      const reply = await callTool(mcp, 'send_message', { projectId: id, message: 'Hello' });
      expect(reply.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    const seen = service.service.requests.map((request) => request.headers.authorization);
    expect(seen).toEqual([`Bearer ${SERVER_KEY}`, `Bearer ${SERVER_KEY}`]);
    expect(JSON.stringify(service.service.requests)).not.toContain(token);
    // The caller reaches the client's middleware, and the log names it, never the token.
    expect(callers).toEqual([
      expect.objectContaining({
        clientId: 'mcp-writer',
        scopes: ['agentchat:read', 'agentchat:write'],
      }),
      expect.objectContaining({ clientId: 'mcp-writer' }),
    ]);
    const infos = logger.lines.filter((line) => line.level === 'info').map((line) => line.text);
    expect(infos).toEqual([
      expect.stringMatching(/"create_project" called by subject .*client "mcp-writer"/),
      expect.stringMatching(/"send_message" called by subject .*client "mcp-writer"/),
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain(token);
  });

  it('issued for an audience named by `audience` gets in, as Entra ID tokens for the API id do', async () => {
    // Entra ID's v2.0 tokens carry the API's application id as `aud`, never the endpoint's URL:
    // the other resource the authorization server knows stands in for that id here.
    const entraLike = makeHandler({ audience: ['http://other.example.test/mcp'] });
    const token = await issuer.issueToken(
      issuer.mcpClients.writer,
      'http://other.example.test/mcp',
    );
    const mcp = await connect(entraLike, token);
    try {
      const created = await callTool(mcp, 'create_project', { name: 'Entra', agentId: 'agent_1' });
      expect(created.isError).toBeFalsy();
    } finally {
      await mcp.close();
      await entraLike.close();
    }
    expect(service.service.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${SERVER_KEY}`,
    ]);
    // The default handler, with no audience of its own, still refuses that token.
    expect((await post(handler, token, listTools)).status).toBe(401);
  });

  it('with only agentchat:read lists get_project alone, and gets 403 for a write tool', async () => {
    const token = await issuer.issueToken(issuer.mcpClients.reader, RESOURCE, 'agentchat:read');
    const mcp = await connect(handler, token);
    try {
      expect(await listedToolNames(mcp)).toEqual(['get_project']);
    } finally {
      await mcp.close();
    }
    for (const body of [
      callOf('create_project', { name: 'Nope', agentId: 'agent_1' }),
      // A batch is read whole: the write call behind an allowed one is refused too.
      [
        callOf('get_project', { id: 'proj_1' }, 3),
        callOf('send_message', { projectId: 'proj_1', message: 'Hi' }, 4),
      ],
    ]) {
      const response = await post(handler, token, body);
      expect(response.status).toBe(403);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
      expect(challenge).toContain('scope="agentchat:write"');
      expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    }
    expect(service.service.requests).toEqual([]);
  });
});

describe('refused with 401 invalid_token, nothing reaching the service', () => {
  async function expectRefused(token: string): Promise<void> {
    const response = await post(handler, token, callOf('get_project', { id: 'proj_1' }));
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(service.service.requests).toEqual([]);
  }

  it('a token for another audience', async () => {
    await expectRefused(
      await issuer.issueToken(issuer.mcpClients.writer, 'http://other.example.test/mcp'),
    );
  });

  it('an expired token, even one verified and cached before', async () => {
    const token = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
    expect((await post(handler, token, listTools)).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    // Past the provider's 600 s lifetime and the 60 s of skew allowed.
    vi.setSystemTime(Date.now() + 661_000);
    await expectRefused(token);
  });

  it('an unsigned token (alg: none)', async () => {
    const valid = decode(partsOf(await issuer.issueToken(issuer.mcpClients.writer, RESOURCE))[1]);
    await expectRefused(new UnsecuredJWT(valid).encode());
  });

  it("a token signed by another key under the issuer's kid", async () => {
    const valid = decode(partsOf(await issuer.issueToken(issuer.mcpClients.writer, RESOURCE))[1]);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(valid)
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: issuer.signingKeyId })
      .sign(privateKey);
    await expectRefused(forged);
  });

  it('a token whose payload was altered', async () => {
    const reader = await issuer.issueToken(issuer.mcpClients.reader, RESOURCE, 'agentchat:read');
    const [header, payload, signature] = partsOf(reader);
    const widened = encode({ ...decode(payload), scope: 'agentchat:read agentchat:write' });
    await expectRefused(`${header}.${widened}.${signature}`);
  });

  it('a token signed with a shared secret (HS256), whatever its claims', async () => {
    const valid = decode(partsOf(await issuer.issueToken(issuer.mcpClients.writer, RESOURCE))[1]);
    const secret = new TextEncoder().encode('a secret anyone could hold, 32 bytes long');
    const forged = await new SignJWT(valid)
      .setProtectedHeader({ alg: 'HS256', kid: issuer.signingKeyId })
      .sign(secret);
    await expectRefused(forged);
  });

  it('an opaque token, when the server does not introspect', async () => {
    await expectRefused(await issuer.issueToken(issuer.mcpClients.opaque, RESOURCE));
  });
});

describe('the key set', () => {
  it('is fetched again for an unknown kid at most once per cooldown, however many ask', async () => {
    const keySetFetches = () => issuer.paths.filter((path) => path.startsWith('/jwks')).length;
    const valid = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
    const before = keySetFetches();
    expect((await post(handler, valid, listTools)).status).toBe(200);
    // A fresh handler fetches the key set once.
    expect(keySetFetches()).toBe(before + 1);
    const claims = decode(partsOf(valid)[1]);
    const { privateKey } = await generateKeyPair('ES256');
    for (let index = 0; index < 20; index++) {
      const unknown = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: `rotated-${index}` })
        .sign(privateKey);
      expect((await post(handler, unknown, listTools)).status).toBe(401);
    }
    // Within jose's cooldown the first unknown kid is no reason to fetch it again, nor the rest.
    expect(keySetFetches()).toBe(before + 1);
    // Past it, an unknown kid (a rotation) fetches the key set once more.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    const later = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'rotated-later' })
      .sign(privateKey);
    expect((await post(handler, later, listTools)).status).toBe(401);
    expect((await post(handler, later, listTools)).status).toBe(401);
    expect(keySetFetches()).toBe(before + 2);
    expect(service.service.requests).toEqual([]);
  });
});

describe('a request body', () => {
  it('holding a batch of more than 32 messages is refused with 400', async () => {
    const token = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
    const batch = Array.from({ length: 33 }, (_, index) =>
      callOf('get_project', { id: 'proj_1' }, index + 10),
    );
    const response = await post(handler, token, batch);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
    expect(service.service.requests).toEqual([]);
  });

  it('past the cap is answered 413, read no further', async () => {
    const token = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
    const huge = {
      ...callOf('get_project', { id: 'proj_1' }),
      padding: 'x'.repeat(5 * 1024 * 1024),
    };
    const response = await post(handler, token, huge);
    expect(response.status).toBe(413);
    expect(service.service.requests).toEqual([]);
  });
});

describe('introspection', () => {
  it('lets an opaque token in, checked at the introspection endpoint', async () => {
    const introspecting = makeHandler({ introspection: issuer.mcpClients.introspector });
    try {
      const token = await issuer.issueToken(issuer.mcpClients.opaque, RESOURCE);
      expect(token.split('.')).toHaveLength(1);
      const mcp = await connect(introspecting, token);
      try {
        expect(await listedToolNames(mcp)).toEqual(allToolNames);
        await callTool(mcp, 'get_project', { id: 'proj_missing' });
      } finally {
        await mcp.close();
      }
      expect(service.service.requests.map((r) => r.headers.authorization)).toEqual([
        `Bearer ${SERVER_KEY}`,
      ]);
      expect(callers).toEqual([expect.objectContaining({ clientId: 'mcp-opaque' })]);
      // An opaque token that is no token of the issuer's is inactive.
      const response = await post(introspecting, 'not-a-token-of-the-issuer', listTools);
      expect(response.status).toBe(401);
    } finally {
      await introspecting.close();
    }
  });
});

describe('an authorization server out of reach', () => {
  it('is answered 503, not 401, so that hosts keep their login', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = makeHandler({ authorizationServer: `http://127.0.0.1:${port}` });
    try {
      const token = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
      const response = await post(down, token, listTools);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toMatchObject({ error: 'temporarily_unavailable' });
      expect(service.service.requests).toEqual([]);
      expect(logger.lines.some((line) => line.level === 'warn')).toBe(true);
    } finally {
      await down.close();
    }
  });
});

describe('an authorization server that misbehaves', () => {
  /** A fake issuer whose metadata is sound and whose key set answers as `jwks` says. */
  async function fakeIssuer(jwks: (response: import('node:http').ServerResponse) => void) {
    const server = createServer((request, response) => {
      if (request.url === '/.well-known/oauth-authorization-server') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
      } else jwks(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it.each([
    [
      'redirects its key set elsewhere',
      (response: import('node:http').ServerResponse) => {
        response.statusCode = 302;
        response.setHeader('location', `${issuer.issuer}/jwks`);
        response.end();
      },
    ],
    [
      'sends a key set past 256 KiB',
      (response: import('node:http').ServerResponse) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ keys: [], padding: 'x'.repeat(300 * 1024) }));
      },
    ],
  ])('is answered 503 when it %s', async (_, jwks) => {
    const fake = await fakeIssuer(jwks);
    const target = makeHandler({ authorizationServer: fake.url });
    try {
      const { privateKey } = await generateKeyPair('ES256');
      const token = await new SignJWT({ scope: 'agentchat:read', client_id: 'c' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(fake.url)
        .setAudience(RESOURCE)
        .setExpirationTime('5m')
        .sign(privateKey);
      const response = await post(target, token, listTools);
      expect(response.status).toBe(503);
      expect(service.service.requests).toEqual([]);
    } finally {
      await target.close();
      await fake.close();
    }
  });
});

describe('the verified-token cache', () => {
  // 2,000 are enough to show it: a bad token kept would add one each. The 20,000 of the issue are
  // sent to the running bin, whose memory is read (test/reliability/).
  it('keeps valid tokens only: 2,000 distinct bad ones leave it as it was', async () => {
    const token = await issuer.issueToken(issuer.mcpClients.writer, RESOURCE);
    expect((await post(handler, token, listTools)).status).toBe(200);
    expect(cacheSizeOf(handler)).toBe(1);
    const [header, payload] = partsOf(token);
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          post(handler, `${header}.${payload}.bad${batch}x${index}`, listTools),
        ),
      );
      expect(answers.every((answer) => answer.status === 401)).toBe(true);
    }
    expect(cacheSizeOf(handler)).toBe(1);
  });
});

describe('options', () => {
  it("refuse authorization without the server's own client, or with clientOptions", () => {
    expect(() =>
      createMcpHttpHandler({ authorizationServer: issuer.issuer, resource: RESOURCE }),
    ).toThrow(/needs client, a Client with the server's own credential/);
    expect(() =>
      createMcpHttpHandler({
        clientOptions: { baseUrl: service.baseUrl },
        authorizationServer: issuer.issuer,
        resource: RESOURCE,
      }),
    ).toThrow(AgentChatError);
  });

  it('need a resource, an https issuer off loopback, and name a misspelt option', () => {
    expect(() => makeHandler({ resource: undefined } as never)).toThrow(/needs resource/);
    expect(() => makeHandler({ authorizationServer: 'http://auth.example.com' })).toThrow(
      /Invalid authorizationServer "http:\/\/auth.example.com": Issuer URL must be HTTPS/,
    );
    expect(() => createMcpHttpHandler({ client: serverClient(), resource: RESOURCE })).toThrow(
      /resource is for an OAuth protected resource: add authorizationServer/,
    );
    expect(() =>
      createMcpHttpHandler({ client: serverClient(), authorisationServer: issuer.issuer } as never),
    ).toThrow(/unknown option "authorisationServer"; did you mean authorizationServer\?/);
    expect(() => makeHandler({ resource: 'https://mcp.example.com/mcp#part' })).toThrow(
      /a resource URL has no query or fragment/,
    );
    expect(() => makeHandler({ resource: 'mcp.example.com/mcp' })).toThrow(
      /Invalid resource "mcp.example.com\/mcp": expected an absolute https URL/,
    );
    expect(() => makeHandler({ introspection: { clientId: 'mcp-introspector' } as never })).toThrow(
      /introspection needs \{ clientId, clientSecret \}/,
    );
    expect(() => makeHandler({ audience: ['api://agentchat', ''] })).toThrow(
      /audience must be a non-empty string or a list of them/,
    );
    expect(() =>
      createMcpHttpHandler({ client: serverClient(), audience: 'api://agentchat' }),
    ).toThrow(/audience is for an OAuth protected resource: add authorizationServer/);
  });
});
