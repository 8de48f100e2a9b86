/**
 * The MCP trace: the official MCP client sends `_meta.traceparent` with a tool call (SEP-414), and
 * the SDK's spans for that call (agentchat/otel on the real OpenTelemetry SDK) come under it, in
 * process and over Streamable HTTP.
 */
import {
  InMemoryTransport,
  Client as McpClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { createMcpHttpHandler, createMcpServer } from '../../src/mcp/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { connectRecorded } from '../helpers/mcp-client.js';
import { parentOf, traceparentOf, useOpenTelemetry } from '../helpers/otel-sdk.js';

const apiKey = 'sk_test_7a1c3e5b9d2f4a6c';
/** The host's span: trace 4bf9…, span 00f0…. */
const hostTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
const hostSpan = '00f067aa0ba902b7';

const { named } = useOpenTelemetry();
let server: MockServer;
let mcp: McpClient;

beforeAll(async () => {
  server = await startMockServer({ apiKeys: [apiKey] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client: new Client({ apiKey, baseUrl: server.baseUrl }) }).connect(
    serverSide,
  );
  ({ mcp } = await connectRecorded(clientSide));
});
afterEach(() => server.service.reset());
afterAll(async () => {
  await mcp.close();
  await server.close();
});

describe('a tool call with _meta.traceparent', () => {
  it("puts the SDK's spans for the call under the host's span, and sends their context on", async () => {
    const result = await mcp.callTool({
      name: 'create_project',
      arguments: { name: 'From the host', agentId: 'agent_1' },
      _meta: { traceparent: `00-${hostTrace}-${hostSpan}-01`, tracestate: 'host=1' },
    });
    expect(result.isError).toBeFalsy();

    const [call] = named('projects.create');
    const [attempt] = named('POST');
    expect(call?.spanContext().traceId).toBe(hostTrace);
    expect(parentOf(call)).toBe(hostSpan);
    expect(parentOf(attempt)).toBe(call?.spanContext().spanId);
    const [logged] = server.service.requestLog();
    expect(logged?.headers.traceparent).toBe(traceparentOf(attempt));
    expect(logged?.headers.tracestate).toBe('host=1');
  });

  it('does the same over Streamable HTTP (createMcpHttpHandler, the face agentchat-mcp --http serves)', async () => {
    const handler = createMcpHttpHandler({
      client: new Client({ apiKey, baseUrl: server.baseUrl }),
    });
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    });
    const overHttp = new McpClient({ name: 'agentchat-tests', version: '1.0.0' });
    await overHttp.connect(transport);
    try {
      await overHttp.callTool({
        name: 'get_project',
        arguments: { id: 'proj_missing' },
        _meta: { traceparent: `00-${hostTrace}-${hostSpan}-01` },
      });
    } finally {
      await overHttp.close();
    }
    const [call] = named('projects.get');
    expect(call?.spanContext().traceId).toBe(hostTrace);
    expect(parentOf(call)).toBe(hostSpan);
    expect(call?.attributes['error.type']).toBe('NotFoundError');
  });

  it('starts a trace of its own for a tool call without one', async () => {
    await mcp.callTool({
      name: 'create_project',
      arguments: { name: 'No context', agentId: 'agent_1' },
    });
    const [call] = named('projects.create');
    expect(call).toBeDefined();
    expect(parentOf(call)).toBeUndefined();
    expect(call?.spanContext().traceId).not.toBe(hostTrace);
  });
});
