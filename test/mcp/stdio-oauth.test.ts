/**
 * agentchat-mcp with OAuth 2.0 client credentials from its environment: the bin gets a token from
 * the mock's token endpoint and calls the service with it, and neither the secret nor the token
 * ever appears in what it says on stdout or stderr.
 */
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { callTool, connectRecorded } from '../helpers/mcp-client.js';
import { tsxLoader } from '../helpers/run-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = [...tsxLoader, 'src/mcp/bin.ts'];
const credentials = { clientId: 'mcp-host', clientSecret: 'mcp:host/secret+1' };

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ oauthClients: [credentials] });
});
afterAll(() => server?.close());

it('serves the tools with a token from the OAuth settings', { timeout: 30_000 }, async () => {
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: bin,
    cwd: repo,
    env: {
      AGENTCHAT_BASE_URL: server.baseUrl,
      AGENTCHAT_CLIENT_ID: credentials.clientId,
      AGENTCHAT_CLIENT_SECRET: credentials.clientSecret,
      AGENTCHAT_TOKEN_URL: `${server.baseUrl}/oauth/token`,
      AGENTCHAT_LOG: 'debug',
    },
    stderr: 'pipe',
  });
  let stderr = '';
  stdio.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const { mcp, transport } = await connectRecorded(stdio);
  try {
    const created = await callTool(mcp, 'create_project', { name: 'Via OAuth', agentId: 'a' });
    expect(created.isError).toBeFalsy();
    const { id } = created.structuredContent as { id: string };
    const read = await callTool(mcp, 'get_project', { id });
    expect(read.structuredContent).toMatchObject({ id, name: 'Via OAuth' });
  } finally {
    await mcp.close();
  }
  const [token, ...more] = server.service.oauth.tokens();
  expect(more).toEqual([]);
  expect(token?.clientId).toBe(credentials.clientId);
  const calls = server.service.requests.filter((r) => !r.path.endsWith('/oauth/token'));
  expect(calls.map((r) => r.headers.authorization)).toEqual([
    `Bearer ${token?.accessToken}`,
    `Bearer ${token?.accessToken}`,
  ]);
  const said = transport.transcript() + stderr;
  expect(said).not.toContain(credentials.clientSecret);
  expect(said).not.toContain(token?.accessToken);
});
