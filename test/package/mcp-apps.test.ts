/**
 * The MCP Apps views from the packed tarball: the `agentchat-mcp` bin npm links, with the views
 * its build ships (dist/mcp/apps/views.cjs, loaded through `#mcp-views`), shown by the test host
 * of the extension's own parts (test/helpers/apps-host.ts) in Chromium against the packed mock:
 * the reply and its suggestions, a suggestion sent through the host to the mock and its reply
 * shown, the project card. And `--no-apps` and `--read-only` as the official MCP client sees them.
 * test/mcp/apps-views-browsers.test.ts shows the same in the three engines from source.
 */

import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import { type AppsHost, startAppsHost } from '../helpers/apps-host.js';
import {
  chatMessages,
  NEXT_REPLY,
  newProject,
  SUGGESTIONS,
  startPackedMcp,
  startPackedMock,
} from '../helpers/apps-packed.js';
import type { McpHttpProcess } from '../helpers/mcp-http.js';
import { openEnginePage } from '../helpers/page-engines.js';

let mock: MockServer;
const started: McpHttpProcess[] = [];

beforeAll(async () => {
  mock = await startPackedMock();
});
afterAll(async () => {
  for (const server of started) await server.stop();
  await mock?.close();
});

/** The packed bin over HTTP with `flags`, stopped after the file's tests. */
async function packedServer(flags: readonly string[] = []): Promise<McpHttpProcess> {
  const server = await startPackedMcp(mock, flags);
  started.push(server);
  return server;
}

async function connect(url: string): Promise<McpClient> {
  const client = new McpClient({ name: 'agentchat-package-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('the packed agentchat-mcp with its views', { timeout: 180_000 }, () => {
  let host: AppsHost;
  beforeAll(async () => {
    host = await startAppsHost((await packedServer()).url);
  });
  afterAll(() => host?.close());

  it('shows the reply, sends a suggestion through the host to the mock, and shows the project card', async () => {
    const id = await newProject(mock, 'Support desk');
    const page = await openEnginePage('chromium', {
      width: 320,
      height: 600,
      colorScheme: 'light',
    });
    const inView = (expression: string) =>
      `(() => { const view = document.querySelector('iframe')?.contentDocument; return view ? ${expression} : null; })()`;
    try {
      await page.goto(
        host.pageUrl({
          tool: 'send_message',
          args: { projectId: id, message: 'Hello' },
          theme: 'light',
          width: 320,
        }),
      );
      await expect
        .poll(
          () =>
            page.evaluate<string[] | null>(
              inView("[...view.querySelectorAll('button.suggestion')].map((b) => b.textContent)"),
            ),
          { timeout: 30_000 },
        )
        .toEqual(SUGGESTIONS);
      await page.evaluate(inView("view.querySelector('button.suggestion').click()"));
      await expect
        .poll(() =>
          page.evaluate<string | null>(
            inView("view.querySelectorAll('.reply')[1]?.textContent ?? null"),
          ),
        )
        .toBe(NEXT_REPLY);
      expect(chatMessages(mock, id)).toEqual([{ message: 'Hello' }, { message: SUGGESTIONS[0] }]);

      await page.goto(
        host.pageUrl({ tool: 'get_project', args: { id }, theme: 'light', width: 320 }),
      );
      await expect
        .poll(
          () =>
            page.evaluate<string | null>(
              inView("view.querySelector('.name')?.textContent ?? null"),
            ),
          {
            timeout: 30_000,
          },
        )
        .toBe('Support desk');
      expect(await page.evaluate<string[]>('window.appsHost.errors')).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('the packed agentchat-mcp with --no-apps and --read-only', { timeout: 60_000 }, () => {
  it('--no-apps: no view named, no resource offered', async () => {
    const mcp = await connect((await packedServer(['--no-apps'])).url);
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool._meta)).toEqual([undefined, undefined, undefined]);
      expect(mcp.getServerCapabilities()?.resources).toBeUndefined();
    } finally {
      await mcp.close();
    }
  });

  it('--read-only: the project view alone, read from the package', async () => {
    const mcp = await connect((await packedServer(['--read-only'])).url);
    try {
      const { resources } = await mcp.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(['ui://agentchat/project.html']);
      const { contents } = await mcp.readResource({ uri: 'ui://agentchat/project.html' });
      expect((contents[0] as { text: string }).text).toContain(
        '<main id="view" data-view="project"',
      );
    } finally {
      await mcp.close();
    }
  });
});
