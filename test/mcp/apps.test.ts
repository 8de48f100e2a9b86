/**
 * The MCP Apps views on createMcpServer, in process, read by the official MCP client: the views
 * as resources named by their tools' `_meta.ui.resourceUri`, on by default, left out with
 * `apps: false`, scoped with the tools; and a host without the extension sees the answers it saw
 * before the views, but for `_meta`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  InMemoryTransport,
  Client as McpClient,
  type ReadResourceResult,
  type Tool,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, ConfigurationError } from '../../src/index.js';
import { parseBinArguments, USAGE } from '../../src/mcp/arguments.js';
import {
  createMcpHttpHandler,
  createMcpServer,
  type McpServerOptions,
} from '../../src/mcp/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

const API_KEY = 'sk_mcp_apps_5d1e7a20';
const MIME = 'text/html;profile=mcp-app';
/** What a host that renders MCP Apps tells the server when it connects. */
const UI_CAPABILITY = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } };

let server: MockServer;
const opened: McpClient[] = [];

beforeAll(async () => {
  server = await startMockServer({
    apiKeys: [API_KEY],
    agent: ({ message }) => ({ message: `You said ${message}`, suggestions: ['Next step'] }),
  });
});
afterAll(() => server?.close());
beforeEach(() => server.service.reset());
afterEach(async () => {
  await Promise.all(opened.splice(0).map((mcp) => mcp.close()));
});

/** The official MCP client on a server made with `options`, as a host with or without the UI. */
async function connect(
  options: Omit<McpServerOptions, 'client'> = {},
  { ui = true } = {},
): Promise<McpClient> {
  const client = new Client({ apiKey: API_KEY, baseUrl: server.baseUrl });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client, ...options }).connect(serverSide);
  const mcp = new McpClient(
    { name: 'agentchat-apps-tests', version: '1.0.0' },
    ui ? { capabilities: UI_CAPABILITY } : {},
  );
  await mcp.connect(clientSide);
  opened.push(mcp);
  return mcp;
}

async function toolsOf(mcp: McpClient): Promise<Map<string, Tool>> {
  return new Map((await mcp.listTools()).tools.map((tool) => [tool.name, tool]));
}

async function resourceUris(mcp: McpClient): Promise<string[]> {
  return (await mcp.listResources()).resources.map((resource) => resource.uri).sort();
}

describe('the views, on by default', () => {
  it('names each tool its view in _meta.ui.resourceUri', async () => {
    const tools = await toolsOf(await connect());
    expect(tools.get('send_message')?._meta?.ui).toEqual({
      resourceUri: 'ui://agentchat/chat.html',
    });
    for (const name of ['create_project', 'get_project']) {
      expect(tools.get(name)?._meta?.ui).toEqual({ resourceUri: 'ui://agentchat/project.html' });
    }
  });

  it('declares the resources capability and lists both views as MCP Apps documents', async () => {
    const mcp = await connect();
    expect(mcp.getServerCapabilities()?.resources).toBeDefined();
    const { resources } = await mcp.listResources();
    expect(resources.map(({ uri, mimeType }) => ({ uri, mimeType }))).toEqual([
      { uri: 'ui://agentchat/chat.html', mimeType: MIME },
      { uri: 'ui://agentchat/project.html', mimeType: MIME },
    ]);
  });

  it.each([
    ['chat', 'Chat with the project agent'],
    ['project', 'Project'],
  ])('serves %s.html as one self-contained document', { timeout: 60_000 }, async (view, title) => {
    const mcp = await connect();
    const uri = `ui://agentchat/${view}.html`;
    const { contents } = (await mcp.readResource({ uri })) as ReadResourceResult;
    expect(contents).toHaveLength(1);
    const [document] = contents;
    expect(document).toMatchObject({ uri, mimeType: MIME });
    const html = (document as { text: string }).text;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<title>${title}</title>`);
    expect(html).toContain(`<main id="view" data-view="${view}"`);
    // Its script and style inline, and nothing the page would load: no element with a source,
    // no link, no import.
    const markup = html
      .replace(/<script>[\s\S]*<\/script>/, '')
      .replace(/<style>[\s\S]*<\/style>/, '');
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(markup).not.toMatch(/\b(src|href|srcset)=|<link\b|@import/i);
    expect(html).not.toMatch(/<script[^>]*\bsrc=/);
  });
});

describe('a host without the extension', () => {
  /** A tool list as JSON, without the `_meta` of each tool that the views add. */
  const withoutMeta = (tools: Map<string, Tool>) =>
    JSON.stringify([...tools.values()].map(({ _meta, ...tool }) => tool));

  it('lists the tools as a server without views does, but for _meta', async () => {
    const withViews = await toolsOf(await connect({}, { ui: false }));
    const without = await toolsOf(await connect({ apps: false }, { ui: false }));
    expect([...without.values()].some((tool) => tool._meta !== undefined)).toBe(false);
    expect(withoutMeta(withViews)).toBe(withoutMeta(without));
  });

  it('gets the same answer to each tools/call, byte for byte', async () => {
    const withViews = await connect({}, { ui: false });
    const without = await connect({ apps: false }, { ui: false });
    const created = [
      await withViews.callTool({
        name: 'create_project',
        arguments: { name: 'Docs', agentId: 'agent_1' },
      }),
      await without.callTool({
        name: 'create_project',
        arguments: { name: 'Docs', agentId: 'agent_1' },
      }),
    ];
    const ids = created.map((result) => (result.structuredContent as { id: string }).id);
    // Two projects: the same answer once the service's own id and time are set aside.
    const normalized = created.map((result, index) =>
      JSON.stringify(result)
        .replaceAll(ids[index] as string, 'proj_x')
        .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'time'),
    );
    expect(normalized[0]).toBe(normalized[1]);
    for (const [name, args] of [
      ['get_project', { id: ids[0] }],
      ['send_message', { projectId: ids[0], message: 'Hello' }],
      ['get_project', { id: 'proj_missing' }],
    ] as const) {
      const [a, b] = [
        await withViews.callTool({ name, arguments: args }),
        await without.callTool({ name, arguments: args }),
      ];
      expect(JSON.stringify(a).replace(/req_[\w-]+/g, 'req')).toBe(
        JSON.stringify(b).replace(/req_[\w-]+/g, 'req'),
      );
    }
  });
});

describe('apps: false, and the tools offered', () => {
  it('leaves the views out: no _meta.ui, no resources', async () => {
    const mcp = await connect({ apps: false });
    for (const tool of (await toolsOf(mcp)).values()) expect(tool._meta).toBeUndefined();
    expect(mcp.getServerCapabilities()?.resources).toBeUndefined();
    // The official client asks no server for what it does not declare.
    expect((await mcp.listResources()).resources).toEqual([]);
  });

  it('keeps only the project view with readOnly', async () => {
    const mcp = await connect({ readOnly: true });
    expect(await resourceUris(mcp)).toEqual(['ui://agentchat/project.html']);
    expect((await toolsOf(mcp)).get('get_project')?._meta?.ui).toEqual({
      resourceUri: 'ui://agentchat/project.html',
    });
  });

  it('keeps only the chat view for send_message alone', async () => {
    expect(await resourceUris(await connect({ tools: ['send_message'] }))).toEqual([
      'ui://agentchat/chat.html',
    ]);
  });

  it('refuses an apps that is not a boolean, with a ConfigurationError', () => {
    const client = new Client({ apiKey: API_KEY, baseUrl: server.baseUrl });
    const apps = 'no' as unknown as boolean;
    expect(() => createMcpServer({ client, apps })).toThrow(ConfigurationError);
    expect(() => createMcpServer({ client, apps })).toThrow(/apps must be true or false/);
    expect(() => createMcpHttpHandler({ client, apps })).toThrow(/apps must be true or false/);
  });
});

describe('agentchat-mcp --no-apps', () => {
  it('reads --no-apps, and serves the views without it', () => {
    expect(parseBinArguments([]).apps).toBe(true);
    expect(parseBinArguments(['--no-apps']).apps).toBe(false);
    expect(parseBinArguments(['--http', '--no-apps', '--read-only'])).toMatchObject({
      apps: false,
      scope: { readOnly: true },
    });
  });

  it('says so in its --help', () => {
    expect(USAGE).toMatch(/--no-apps\s+leave out the MCP Apps views/);
  });
});

describe('the pictures of the views in docs/mcp.md', () => {
  it('are the mcp-apps files of docs/images, each shown, each a small PNG', async () => {
    // Linked by their address in the repository: docs/images does not ship in the package.
    const docs = join(import.meta.dirname, '../../docs');
    const guide = await readFile(join(docs, 'mcp.md'), 'utf8');
    const shown = [
      ...guide.matchAll(
        /!\[[^\]]+\]\(https:\/\/github\.com\/agentchat\/agentchat-js\/raw\/main\/docs\/images\/(mcp-apps-[^)]+)\)/g,
      ),
    ].map((match) => match[1]);
    const files = (await readdir(join(docs, 'images'))).filter((file) =>
      file.startsWith('mcp-apps-'),
    );
    expect(shown.sort()).toEqual(files.sort());
    expect(files).toHaveLength(4);
    for (const file of files) {
      const png = await readFile(join(docs, 'images', file));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeLessThan(40_000);
    }
  });
});
