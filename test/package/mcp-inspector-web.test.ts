/**
 * The packed `agentchat-mcp --http --authorization-server` as a person meets it through a host
 * that signs people in: the MCP Inspector's web UI (v2) in Chromium, and oidc-provider configured
 * exactly as docs/mcp.md's local recipe (the recipe's code is read from the page itself, so the
 * two cannot drift). The Inspector registers itself, or uses the public client the recipe
 * registers; a person logs in and consents on oidc-provider's own pages; the tools are listed,
 * with no schema-portability finding; create_project and get_project are called; and the service
 * sees only the server's own key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import {
  callToolInInspector,
  connectInInspector,
  freePort,
  inspectorTools,
  type McpInspector,
  openInspector,
  portabilityFindings,
  signInAtOidcProvider,
  startMcpInspector,
} from '../helpers/mcp-inspector.js';
import { consumerPath, useMockServer } from '../helpers/package-consumer.js';

const repo = resolve(import.meta.dirname, '../..');
/** The key the packed bin calls the service with, which the mock (any non-empty key) accepts. */
const API_KEY = 'sk_test_package';
const PATH = `${join(repo, 'node_modules/.bin')}:${process.env.PATH}`;
const mock = useMockServer();

/** docs/mcp.md's `auth-server.mjs`, as a reader copies it. */
async function recipeFromDocs(): Promise<string> {
  const guide = await readFile(join(repo, 'docs/mcp.md'), 'utf8');
  const recipe = [...guide.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .find((code) => code.startsWith('// auth-server.mjs'));
  if (recipe === undefined) throw new Error('docs/mcp.md has no auth-server.mjs recipe');
  return recipe;
}

/** Where the recipe runs: a folder in the repo, whose node_modules holds oidc-provider. */
let recipeFolder: string;
let browser: Browser;
const running: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  recipeFolder = await mkdtemp(join(repo, 'node_modules/.cache/agentchat-recipe-'));
  await writeFile(join(recipeFolder, 'auth-server.mjs'), await recipeFromDocs());
  browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
});
afterAll(async () => {
  for (const stop of running.reverse()) await stop();
  await browser?.close();
  await rm(recipeFolder, { recursive: true, force: true });
});

/** The recipe's server, started as its page says, on the ports of this run. */
async function startRecipe(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['auth-server.mjs'], {
    cwd: recipeFolder,
    env: { PATH, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await once(child, 'exit').catch(() => undefined);
  });
  // It prints nothing once it listens: its discovery document answering is the sign.
  const discovery = `${env.ISSUER}/.well-known/openid-configuration`;
  for (let attempt = 0; ; attempt++) {
    const answer = await fetch(discovery).catch(() => undefined);
    if (answer?.ok) return child;
    if (child.exitCode !== null || attempt > 200) {
      throw new Error(`the recipe's server did not start (exit code ${child.exitCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One person's run: the recipe, the packed server and an Inspector, each on ports of its own. */
async function startRun(clientId?: string): Promise<{
  issuer: string;
  server: McpHttpProcess;
  inspector: McpInspector;
}> {
  const [issuerPort, mcpPort, inspectorPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const issuer = `http://localhost:${issuerPort}`;
  const serverUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  await startRecipe({
    ISSUER: issuer,
    MCP_RESOURCE: serverUrl,
    INSPECTOR_ORIGIN: `http://127.0.0.1:${inspectorPort}`,
  });
  const server = await startMcpHttp(
    consumerPath('node_modules/.bin/agentchat-mcp'),
    ['--http', '--port', String(mcpPort), '--authorization-server', issuer],
    {
      cwd: consumerPath(),
      env: {
        PATH,
        AGENTCHAT_BASE_URL: mock.server.baseUrl,
        AGENTCHAT_API_KEY: API_KEY,
        AGENTCHAT_LOG: 'info',
      },
    },
  );
  running.push(() => server.stop());
  expect(server.url).toBe(serverUrl);
  const inspector = await startMcpInspector({
    serverUrl,
    port: inspectorPort,
    ...(clientId !== undefined && { clientId }),
  });
  running.push(() => inspector.stop());
  return { issuer, server, inspector };
}

describe('the MCP Inspector web UI against the packed server and the docs recipe', () => {
  it.each([
    { how: 'registering itself', clientId: undefined, login: 'ada' },
    { how: 'as the public client the recipe registers', clientId: 'mcp-inspector', login: 'grace' },
  ])('signs a person in $how, lists the tools and calls them', async ({ clientId, login }) => {
    const { issuer, server, inspector } = await startRun(clientId);
    const ui = await openInspector(browser, inspector);
    try {
      await connectInInspector(ui, (page) => signInAtOidcProvider(page, login));
      const authorization = ui.requests.find((request) =>
        request.startsWith(`GET ${issuer}/auth?`),
      );
      const asked = new URL(authorization?.slice('GET '.length) ?? issuer).searchParams;
      // PKCE, the resource typed (RFC 8707), and the scopes the server's challenge named.
      expect(asked.get('code_challenge_method')).toBe('S256');
      expect(asked.get('resource')).toBe(server.url);
      expect(asked.get('scope')?.split(' ')).toEqual(
        expect.arrayContaining(['agentchat:read', 'agentchat:write']),
      );
      // Registered by the Inspector's backend (RFC 7591), not from the page: the client id the
      // person signed in for is then one oidc-provider made, known to no configuration.
      if (clientId === undefined) {
        expect(asked.get('client_id')).not.toMatch(/^(mcp-inspector|local-agent)$/);
      } else {
        expect(asked.get('client_id')).toBe(clientId);
      }

      expect(await inspectorTools(ui)).toEqual(['create_project', 'get_project', 'send_message']);
      expect(await portabilityFindings(ui)).toEqual([]);

      const name = `Signed in as ${login}`;
      const created = await callToolInInspector(ui, 'create_project', {
        name,
        agentId: 'agent_support',
      });
      const id = created.match(/proj_\w+/)?.[0];
      expect(created).toContain(`named "${name}"`);
      expect(id).toBeDefined();
      const got = await callToolInInspector(ui, 'get_project', { id: id as string });
      expect(got).toContain(id);
      expect(got).toContain(name);
    } finally {
      await ui.close();
    }
    // The service saw the server's own key for the person's calls, and who acted is logged.
    const create = mock.server.service
      .requestLog()
      .find(
        (request) =>
          (request.body as { name?: unknown } | undefined)?.name === `Signed in as ${login}`,
      );
    expect(create?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.stderr()).toMatch(new RegExp(`"create_project" called by subject "${login}"`));
    expect(server.stderr()).toMatch(new RegExp(`"get_project" called by subject "${login}"`));
  });
});
