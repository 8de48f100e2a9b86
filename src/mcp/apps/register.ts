/**
 * The views on an MCP server, through the extension's own server helpers: each view a resource
 * (`text/html;profile=mcp-app`) and each tool it shows naming it in `_meta.ui.resourceUri`. A host
 * without the extension ignores both: its `tools/list` and `tools/call` answers are as without
 * the views, but for the `_meta` the MCP spec lets a server add.
 */
import {
  type McpUiAppToolConfig,
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from '@modelcontextprotocol/ext-apps/server';
import type {
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { VIEW_NAMES, VIEWS, viewOf } from './catalog.js';
import { viewDocument } from './documents.js';

/**
 * Registers a tool as `server.registerTool` does, naming its view when `apps` is on and the tool
 * has one. `config` is the tool's own, passed on whole; the SDK checks it and `handler` against
 * each other (its overloads take a literal, which a generic pass-through cannot be).
 */
export function registerToolWithView<
  Config extends {
    title: string;
    inputSchema: StandardSchemaWithJSON;
    outputSchema: StandardSchemaWithJSON;
    _meta?: Record<string, unknown>;
  },
>(
  server: McpServer,
  apps: boolean,
  name: string,
  config: Config,
  // biome-ignore lint/suspicious/noExplicitAny: the handler of any of the tools' shapes
  handler: (input: any, context: ServerContext) => unknown,
): void {
  const view = apps ? viewOf(name) : undefined;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const callback = handler as any;
  if (view === undefined) {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    server.registerTool(name, config as any, callback);
    return;
  }
  const _meta = { ...config._meta, ui: { resourceUri: VIEWS[view].uri } };
  const appConfig = { ...config, _meta } as McpUiAppToolConfig & {
    inputSchema?: StandardSchemaWithJSON;
    outputSchema: StandardSchemaWithJSON;
  };
  registerAppTool(server, name, appConfig, callback);
}

/** Registers the views that show any of `tools`, each read as its built document. */
export function registerViews(server: McpServer, tools: readonly { name: string }[]): void {
  for (const view of VIEW_NAMES) {
    const { uri, title, description } = VIEWS[view];
    if (!tools.some((tool) => viewOf(tool.name) === view)) continue;
    registerAppResource(
      server,
      view,
      uri,
      { title, description, _meta: { ui: { prefersBorder: true } } },
      async () => ({
        contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await viewDocument(view) }],
      }),
    );
  }
}
