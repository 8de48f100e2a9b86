/**
 * agentchat-mcp with workload identity federation from its environment: the identity token file
 * (`AGENTCHAT_IDENTITY_TOKEN_FILE`) traded by the jwt-bearer grant at a real authorization server
 * (oidc-provider) that trusts the platform's issuer, and the service reached only with the token it
 * issued. The identity token never appears in what the bin says.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { clientOptionsFromEnv, hasOwnCredentials } from '../../src/mcp/config.js';
import { type AuthorizationServer, serverScope } from '../helpers/authorization-server.js';
import { WORKLOAD_CLIENT_ID } from '../helpers/federation-grants.js';
import { callTool, connectRecorded } from '../helpers/mcp-client.js';
import { tsxLoader } from '../helpers/run-process.js';
import type { VerifyingService } from '../helpers/verifying-service.js';
import {
  startWorkloadStack,
  WORKLOAD_AUDIENCE,
  WORKLOAD_SUBJECT,
  type WorkloadPlatform,
  type WorkloadStack,
} from '../helpers/workload-platform.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const bin = [...tsxLoader, 'src/mcp/bin.ts'];
const AUDIENCE = WORKLOAD_AUDIENCE;

let stack: WorkloadStack;
let platform: WorkloadPlatform;
let server: AuthorizationServer;
let service: VerifyingService;
let scratch: string;
beforeAll(async () => {
  stack = await startWorkloadStack();
  ({ platform, server, service } = stack);
  scratch = await mkdtemp(join(tmpdir(), 'agentchat-mcp-identity-'));
});
afterAll(async () => {
  await stack?.close();
  await rm(scratch, { recursive: true, force: true });
});

it('serves the tools with a token traded for the identity token file', {
  timeout: 30_000,
}, async () => {
  const identityToken = await platform.sign({ sub: WORKLOAD_SUBJECT, aud: AUDIENCE });
  const file = join(scratch, 'token');
  await writeFile(file, `${identityToken}\n`);
  const before = server.requests.length;
  const stdio = new StdioClientTransport({
    command: process.execPath,
    args: bin,
    cwd: repo,
    env: {
      AGENTCHAT_BASE_URL: service.baseUrl,
      AGENTCHAT_IDENTITY_TOKEN_FILE: file,
      AGENTCHAT_ISSUER: server.issuer,
      AGENTCHAT_CLIENT_ID: WORKLOAD_CLIENT_ID,
      AGENTCHAT_SCOPE: serverScope,
      AGENTCHAT_RESOURCE: server.resource,
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
    const created = await callTool(mcp, 'create_project', { name: 'Federated', agentId: 'a' });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ name: 'Federated' });
  } finally {
    await mcp.close();
  }
  const requests = server.requests.slice(before);
  expect(requests.map((r) => [r.params.grant_type, r.granted])).toEqual([
    ['urn:ietf:params:oauth:grant-type:jwt-bearer', true],
  ]);
  expect(requests[0]?.params.assertion).toBe(identityToken);
  const said = transport.transcript() + stderr;
  expect(said).not.toContain(identityToken.split('.')[2]);
});

describe('clientOptionsFromEnv with AGENTCHAT_IDENTITY_TOKEN_FILE', () => {
  const base = {
    AGENTCHAT_BASE_URL: 'https://host/api',
    AGENTCHAT_IDENTITY_TOKEN_FILE: '/var/run/secrets/tokens/agentchat',
  };

  it('counts as credentials of its own', () => {
    expect(hasOwnCredentials({ AGENTCHAT_IDENTITY_TOKEN_FILE: '/token' })).toBe(true);
  });

  it.each([
    [{}, 'AGENTCHAT_TOKEN_URL (or AGENTCHAT_ISSUER) is not set'],
    [
      { AGENTCHAT_ISSUER: 'https://auth.example.com', AGENTCHAT_CLIENT_SECRET: 's3cret' },
      'AGENTCHAT_IDENTITY_TOKEN_FILE and AGENTCHAT_CLIENT_SECRET are set',
    ],
    [{ AGENTCHAT_API_KEY: 'sk_1' }, 'Both AGENTCHAT_API_KEY and AGENTCHAT_IDENTITY_TOKEN_FILE'],
  ])('refuses %o with a ConfigurationError', (env, message) => {
    expect(() => clientOptionsFromEnv({ ...base, ...env })).toThrow(ConfigurationError);
    expect(() => clientOptionsFromEnv({ ...base, ...env })).toThrow(message);
  });
});
