/**
 * What the packaging suite's tests of the MCP Apps views share (test/package/mcp-apps*.test.ts):
 * the packed mock, whose agent answers with suggestions and answers the first of them, the packed
 * `agentchat-mcp --http` calling it, and a project made in it.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MockServer } from '../../src/testing/index.js';
import { type McpHttpProcess, startMcpHttp } from './mcp-http.js';
import { consumerPath } from './package-consumer.js';

/** The key the packed bin calls the service with, which the mock accepts. */
export const API_KEY = 'sk_test_package';
export const FIRST_REPLY = 'Hello! I can help with refunds.';
export const SUGGESTIONS = ['Track my refund', 'Talk to a person'];
/** The agent's answer to the first suggestion. */
export const NEXT_REPLY = 'Your refund arrives within five days.';

/** The repo's Node 22 first, as `npm run test:package` puts it; the bin's shebang asks for `node`. */
const PATH = `${resolve(import.meta.dirname, '../../node_modules/.bin')}:${process.env.PATH}`;

/** The packed mock on a free port, its agent answering as the constants above say. */
export async function startPackedMock(): Promise<MockServer> {
  const entry = pathToFileURL(consumerPath('node_modules/agentchat/dist/testing/index.js')).href;
  const testing = (await import(
    /* @vite-ignore */ entry
  )) as typeof import('../../src/testing/index.js');
  return testing.startMockServer({
    port: 0,
    agent: ({ message }) =>
      message === SUGGESTIONS[0]
        ? { message: NEXT_REPLY, suggestions: [] }
        : { message: FIRST_REPLY, suggestions: SUGGESTIONS },
  });
}

/** The packed bin over HTTP with `flags`, calling `mock` with the server's own key. */
export function startPackedMcp(
  mock: MockServer,
  flags: readonly string[] = [],
): Promise<McpHttpProcess> {
  return startMcpHttp(
    consumerPath('node_modules/.bin/agentchat-mcp'),
    ['--http', '--port', '0', ...flags],
    {
      cwd: consumerPath(),
      env: { PATH, AGENTCHAT_BASE_URL: mock.baseUrl, AGENTCHAT_API_KEY: API_KEY },
    },
  );
}

/** A project made in `mock` through the service, as an agent would have; its id. */
export async function newProject(mock: MockServer, name: string): Promise<string> {
  const response = await fetch(`${mock.baseUrl}/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, agentId: 'agent_support' }),
  });
  return ((await response.json()) as { id: string }).id;
}

/** The bodies of the chat messages `mock` received for project `id`. */
export function chatMessages(mock: MockServer, id: string): unknown[] {
  return mock.service
    .requestLog()
    .filter(({ method, path }) => method === 'POST' && path.endsWith(`/v1/projects/${id}/chat`))
    .map(({ body }) => body);
}
