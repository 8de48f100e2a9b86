/**
 * `agentchat-mcp --http --authorization-server` as hosts meet it: child processes on 127.0.0.1,
 * the official MCP client authorizing itself with its own client-credentials provider (RFC 9728
 * discovery from the 401, RFC 8414, RFC 8707 `resource`) at a real authorization server
 * (oidc-provider), and the mock service seeing only the server's own key.
 */
import { fileURLToPath } from 'node:url';
import {
  ClientCredentialsProvider,
  Client as McpClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { startEntraLikeIssuer } from '../helpers/entra-like-issuer.js';
import { allToolNames, callTool, listedToolNames } from '../helpers/mcp-client.js';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

const SERVER_KEY = 'sk_mcp_bin_own_key_3f9a2c';
const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = [...tsxLoader, 'src/mcp/bin.ts'];

let issuer: AuthorizationServer;
let service: MockServer;
const started: McpHttpProcess[] = [];

function startBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  authorizationServer = issuer.issuer,
): Promise<McpHttpProcess> {
  return startMcpHttp(
    process.execPath,
    [...bin, '--http', '--port', '0', '--authorization-server', authorizationServer, ...args],
    {
      cwd: repo,
      env: {
        PATH: process.env.PATH,
        AGENTCHAT_BASE_URL: service.baseUrl,
        AGENTCHAT_API_KEY: SERVER_KEY,
        AGENTCHAT_LOG: 'info',
        ...env,
      },
    },
  ).then((server) => {
    started.push(server);
    return server;
  });
}

async function connect(
  url: string,
  init: ConstructorParameters<typeof StreamableHTTPClientTransport>[1],
) {
  const mcp = new McpClient({ name: 'agentchat-tests', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(url), init));
  return mcp;
}

beforeAll(async () => {
  issuer = await startAuthorizationServer();
  service = await startMockServer({ apiKeys: [SERVER_KEY] });
}, 30_000);
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  await service?.close();
  await issuer?.close();
});
beforeEach(() => service.service.reset());

describe('agentchat-mcp --http --authorization-server', { timeout: 60_000 }, () => {
  it('lets the official MCP client authorize itself, and calls the service with its own key', async () => {
    const server = await startBin([]);
    // The resource is the URL served, as the bin printed it.
    issuer.addMcpResource(server.url);
    const provider = new ClientCredentialsProvider({
      ...issuer.mcpClients.writer,
      expectedIssuer: issuer.issuer,
      scope: 'agentchat:read agentchat:write',
    });
    const mcp = await connect(server.url, { authProvider: provider });
    try {
      expect(await listedToolNames(mcp)).toEqual(allToolNames);
      const created = await callTool(mcp, 'create_project', { name: 'Authorized', agentId: 'a_1' });
      expect(created.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    const token = provider.tokens()?.access_token as string;
    expect(token).toBeTruthy();
    // The token was asked for this very resource (RFC 8707), found from the 401's metadata.
    expect(issuer.requests.at(-1)?.params).toMatchObject({ resource: server.url });
    expect(service.service.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${SERVER_KEY}`,
    ]);
    expect(JSON.stringify(service.service.requests)).not.toContain(token);
    // Who acted is logged, never the token.
    expect(server.stderr()).toMatch(
      /"create_project" called by subject "mcp-writer", client "mcp-writer"/,
    );
    expect(server.stderr()).not.toContain(token);
  });

  it('verifies tokens in two replicas that share nothing', async () => {
    const resource = 'http://127.0.0.1:9/mcp';
    issuer.addMcpResource(resource);
    const replicas = await Promise.all([
      startBin(['--resource', resource]),
      startBin(['--resource', resource]),
    ]);
    const token = await issuer.issueToken(issuer.mcpClients.reader, resource, 'agentchat:read');
    for (const replica of [...replicas, ...replicas]) {
      const mcp = await connect(replica.url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      try {
        expect(await listedToolNames(mcp)).toEqual(['get_project']);
        expect((await callTool(mcp, 'get_project', { id: 'proj_none' })).isError).toBe(true);
      } finally {
        await mcp.close();
      }
    }
    expect(service.service.requests).toHaveLength(4);
    for (const replica of replicas) {
      const answer = await fetch(replica.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(
        'Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp", scope="agentchat:read agentchat:write"',
      );
    }
  });

  it('introspects opaque tokens with --introspection, as the client the environment names', async () => {
    const server = await startBin(['--introspection'], {
      AGENTCHAT_INTROSPECTION_CLIENT_ID: issuer.mcpClients.introspector.clientId,
      AGENTCHAT_INTROSPECTION_CLIENT_SECRET: issuer.mcpClients.introspector.clientSecret,
    });
    issuer.addMcpResource(server.url);
    const token = await issuer.issueToken(issuer.mcpClients.opaque, server.url);
    const mcp = await connect(server.url, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    try {
      expect(await listedToolNames(mcp)).toEqual(allToolNames);
    } finally {
      await mcp.close();
    }
    expect(server.stderr()).not.toContain(issuer.mcpClients.introspector.clientSecret);
  });

  it('refuses --introspection without the client to introspect as, naming what is missing', async () => {
    const result = await runProcess(
      process.execPath,
      [...bin, '--http', '--port', '0', '--authorization-server', issuer.issuer, '--introspection'],
      {
        cwd: repo,
        env: {
          PATH: process.env.PATH,
          AGENTCHAT_BASE_URL: service.baseUrl,
          AGENTCHAT_API_KEY: SERVER_KEY,
          AGENTCHAT_INTROSPECTION_CLIENT_ID: 'mcp-introspector',
        },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^agentchat-mcp: --introspection needs the client it introspects tokens as: AGENTCHAT_INTROSPECTION_CLIENT_SECRET is not set\.$/m,
    );
  });

  it("refuses to start without a credential of the server's own, naming the settings", async () => {
    const result = await runProcess(
      process.execPath,
      [...bin, '--http', '--port', '0', '--authorization-server', issuer.issuer],
      { cwd: repo, env: { PATH: process.env.PATH, AGENTCHAT_BASE_URL: service.baseUrl } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^agentchat-mcp: --authorization-server needs a credential of the server's own .*AGENTCHAT_API_KEY.*AGENTCHAT_CLIENT_ID/m,
    );
  });

  it('takes the scope names of Entra ID from --scope-prefix, --read-scope and --write-scope', async () => {
    const entra = await startEntraLikeIssuer();
    try {
      const server = await startBin(
        [
          ...['--scope-prefix', entra.scopePrefix, '--audience', entra.applicationId],
          ...['--read-scope', 'agentchat.read', '--write-scope', 'agentchat.write'],
        ],
        {},
        entra.issuer,
      );
      const read = `${entra.scopePrefix}agentchat.read`;
      const write = `${entra.scopePrefix}agentchat.write`;
      const metadataUrl = server.url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp');
      expect(await (await fetch(metadataUrl)).json()).toMatchObject({
        scopes_supported: [read, write],
      });
      const unauthorized = await fetch(server.url, { method: 'POST', body: '{}' });
      expect(unauthorized.headers.get('www-authenticate')).toContain(`scope="${read} ${write}"`);
      // A service caller: application permissions in `roles`, no `scp`.
      const token = await entra.token({ roles: ['agentchat.write'] });
      const mcp = await connect(server.url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      try {
        expect(await listedToolNames(mcp)).toEqual(['create_project', 'send_message']);
        const created = await callTool(mcp, 'create_project', { name: 'Roles', agentId: 'a_1' });
        expect(created.isError).toBeFalsy();
      } finally {
        await mcp.close();
      }
      expect(service.service.requests.map((request) => request.headers.authorization)).toEqual([
        `Bearer ${SERVER_KEY}`,
      ]);
    } finally {
      await entra.close();
    }
  });

  it('binds a non-loopback host without --allow-remote, given the public --resource', async () => {
    const server = await startBin([
      '--host',
      '0.0.0.0',
      '--resource',
      'https://mcp.example.com/mcp',
    ]);
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    expect(await server.stop()).toBe(0);
  });
});
