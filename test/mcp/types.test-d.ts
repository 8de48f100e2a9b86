/**
 * The options of createMcpServer and createMcpHttpHandler refuse at compile time what they refuse
 * at run time when the call says it outright: `client` with `clientOptions`, a tool that changes
 * something in a `readOnly: true` scope, a misspelt option. Every form that worked before still
 * compiles: a list or a scope held in a variable is checked when the server is made, as before.
 * Compiled by `npm run typecheck` (tsconfig.json), where an unused `@ts-expect-error` fails.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { Client } from '../../src/index.js';
import {
  createMcpHttpHandler,
  createMcpServer,
  type McpHttpHandlerOptions,
  type McpServerOptions,
  type McpToolScope,
  type ReadOnlyToolName,
  type ToolName,
} from '../../src/mcp/index.js';

const client = new Client({ apiKey: 'sk_test', baseUrl: 'https://host/api' });
declare const names: ToolName[];
declare const readOnly: boolean;

describe('tool names', () => {
  it('are read from the tool table', () => {
    expectTypeOf<ToolName>().toEqualTypeOf<'create_project' | 'get_project' | 'send_message'>();
    expectTypeOf<ReadOnlyToolName>().toEqualTypeOf<'get_project'>();
  });

  it('keep a scope without type arguments as it was', () => {
    expectTypeOf<NonNullable<McpToolScope['tools']>>().toEqualTypeOf<readonly ToolName[]>();
    expectTypeOf<McpToolScope['readOnly']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<NonNullable<McpServerOptions['tools']>>().toEqualTypeOf<readonly ToolName[]>();
    expectTypeOf<NonNullable<McpHttpHandlerOptions['tools']>>().toEqualTypeOf<
      readonly ToolName[]
    >();
  });
});

describe('createMcpServer', () => {
  it('accepts every scope it serves', () => {
    createMcpServer({ client });
    createMcpServer({ client, readOnly: true });
    createMcpServer({ client, readOnly: true, tools: ['get_project'] });
    createMcpServer({ client, readOnly: true, tools: ['get_project'] as const });
    createMcpServer({ client, readOnly: false, tools: ['create_project', 'send_message'] });
    createMcpServer({ client, tools: ['create_project', 'get_project', 'send_message'] });
    // Known only when the code runs: checked when the server is made.
    createMcpServer({ client, tools: names });
    createMcpServer({ client, readOnly: true, tools: names });
    createMcpServer({ client, readOnly, tools: ['create_project'] });
    const scope: McpToolScope = { readOnly: true };
    createMcpServer({ client, ...scope });
    const options: McpServerOptions = { client, readOnly, tools: names };
    createMcpServer(options);
  });

  it('refuses a tool that changes something in a read-only scope', () => {
    // @ts-expect-error create_project changes something
    createMcpServer({ client, readOnly: true, tools: ['create_project'] });
    // @ts-expect-error send_message changes something
    createMcpServer({ client, readOnly: true, tools: ['get_project', 'send_message'] });
    // @ts-expect-error a tuple written out is checked too
    createMcpServer({ client, readOnly: true, tools: ['send_message'] as const });
  });

  it('refuses a misspelt option or tool, and a missing client', () => {
    // @ts-expect-error readOnly, not readonly
    createMcpServer({ client, readonly: true });
    // @ts-expect-error get_project, not get_projects
    createMcpServer({ client, tools: ['get_projects'] });
    // @ts-expect-error a tool name is one of ToolName
    createMcpServer({ client, tools: ['get_project'] as string[] });
    // @ts-expect-error the server needs a client
    createMcpServer({ readOnly: true });
  });
});

describe('createMcpHttpHandler', () => {
  it('accepts a client, client options, or neither', () => {
    createMcpHttpHandler();
    createMcpHttpHandler({});
    createMcpHttpHandler({ client });
    createMcpHttpHandler({ clientOptions: { baseUrl: 'https://host/api' } });
    createMcpHttpHandler({ readOnly: true, tools: ['get_project'], client });
    createMcpHttpHandler({ readOnly, tools: names });
    createMcpHttpHandler({
      client,
      authorizationServer: 'https://login.example.com',
      resource: 'https://mcp.example.com/mcp',
      audience: ['api://agentchat'],
    });
    createMcpHttpHandler({
      client,
      authorizationServer: 'https://login.microsoftonline.com/tenant/v2.0',
      resource: 'https://mcp.example.com/mcp',
      audience: '3f2a9c4e-0000-4000-8000-000000000001',
      scopePrefix: 'api://3f2a9c4e-0000-4000-8000-000000000001/',
      readScope: 'agentchat.read',
      writeScope: 'agentchat.write',
    });
    // Options built elsewhere, whose clientOptions may be absent: checked when the handler is made.
    const base: McpHttpHandlerOptions = { allowedOrigins: ['https://app.example.com'] };
    createMcpHttpHandler(base);
    createMcpHttpHandler({ ...base, client });
    createMcpHttpHandler({ ...base, clientOptions: { baseUrl: 'https://host/api' } });
    let options: McpHttpHandlerOptions = { clientOptions: {} };
    options = { ...options, client };
    createMcpHttpHandler(options);
    // A type of the application's own, with an option it may leave out.
    interface AppOptions extends McpHttpHandlerOptions {
      verbose?: boolean;
    }
    const app: AppOptions = { client };
    createMcpHttpHandler(app);
  });

  it('refuses client with clientOptions', () => {
    // @ts-expect-error client or clientOptions, not both
    createMcpHttpHandler({ client, clientOptions: { baseUrl: 'https://host/api' } });
    // @ts-expect-error even empty ones
    createMcpHttpHandler({ client, clientOptions: {} });
  });

  it('refuses a tool that changes something in a read-only scope', () => {
    // @ts-expect-error send_message changes something
    createMcpHttpHandler({ readOnly: true, tools: ['send_message'] });
  });

  it('refuses a misspelt option, at the top or in clientOptions', () => {
    // @ts-expect-error readOnly, not readonly
    createMcpHttpHandler({ readonly: true });
    // @ts-expect-error allowedOrigins, not allowedOrigin
    createMcpHttpHandler({ client, allowedOrigin: ['https://app.example.com'] });
    // @ts-expect-error scopePrefix, not scopesPrefix
    createMcpHttpHandler({ client, scopesPrefix: 'api://x/' });
    // @ts-expect-error baseUrl, not baseurl
    createMcpHttpHandler({ clientOptions: { baseurl: 'https://host/api' } });
    // @ts-expect-error clientOptions take no apiKey: pass-through uses each caller's
    createMcpHttpHandler({ clientOptions: { apiKey: 'sk_test' } });
  });
});
