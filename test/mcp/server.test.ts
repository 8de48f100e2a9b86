/**
 * createMcpServer in process: the official MCP client talks to it over a linked in-memory
 * transport, and the tools call a real Client against the mock service on 127.0.0.1.
 */
import {
  InMemoryTransport,
  type Client as McpClient,
  type Tool,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentChatError, Client, ConfigurationError } from '../../src/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  badArguments,
  callTool,
  connectRecorded,
  type RecordingTransport,
  textOf,
} from '../helpers/mcp-client.js';
import { QUOTED_KEY, quotingClient, textsWithSecret } from '../helpers/quoting-fetch.js';

const API_KEY = 'sk_mcp_in_process_4f7b2c9e';

let server: MockServer;
let mcp: McpClient;
let transport: RecordingTransport;

beforeAll(async () => {
  server = await startMockServer({ apiKeys: [API_KEY] });
});
afterAll(() => server?.close());

/** Connects the MCP client to a server over `client` (by default one with the mock's key). */
async function connect(client = new Client({ apiKey: API_KEY, baseUrl: server.baseUrl })) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client }).connect(serverSide);
  ({ mcp, transport } = await connectRecorded(clientSide));
}

beforeEach(async () => {
  server.service.reset();
  await connect();
});
afterEach(() => mcp?.close());

describe('tools/list', () => {
  let tools: Map<string, Tool>;
  beforeEach(async () => {
    tools = new Map((await mcp.listTools()).tools.map((tool) => [tool.name, tool]));
  });

  it('lists the three operations', () => {
    expect([...tools.keys()].sort()).toEqual(['create_project', 'get_project', 'send_message']);
  });

  it("takes each operation's arguments as the SDK's schemas describe them", () => {
    expect(tools.get('create_project')?.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        agentId: { type: 'string', minLength: 1 },
        metadata: { type: 'object' },
      },
      required: ['name', 'agentId'],
      additionalProperties: false,
    });
    expect(tools.get('get_project')?.inputSchema).toMatchObject({
      properties: { id: { type: 'string', minLength: 1 } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(tools.get('send_message')?.inputSchema).toMatchObject({
      properties: {
        projectId: { type: 'string', minLength: 1 },
        message: { type: 'string', minLength: 1 },
      },
      required: ['projectId', 'message'],
      additionalProperties: false,
    });
  });

  it('declares the shape of each result', () => {
    expect(tools.get('create_project')?.outputSchema).toMatchObject({
      type: 'object',
      required: ['id', 'name', 'status', 'createdAt'],
    });
    expect(tools.get('get_project')?.outputSchema).toMatchObject({
      required: ['id', 'name', 'status', 'createdAt', 'agentId', 'metadata'],
      properties: { metadata: { type: 'object' } },
    });
    expect(tools.get('send_message')?.outputSchema).toMatchObject({
      required: ['message', 'suggestions'],
      properties: { message: { type: 'string' }, suggestions: { type: 'array' } },
    });
  });

  it('declares no schema that constrains nothing, which portability checks flag', () => {
    /** The paths of every `{}` among a schema's subschemas. */
    const emptySchemas = (schema: unknown, path: string): string[] => {
      if (typeof schema !== 'object' || schema === null) return [];
      if (Object.keys(schema).length === 0) return [path];
      const record = schema as Record<string, unknown>;
      const children = [
        ...Object.entries((record.properties ?? {}) as Record<string, unknown>).map(
          ([name, child]) => [`${path}.properties.${name}`, child] as const,
        ),
        ...(['additionalProperties', 'items'] as const).map(
          (keyword) => [`${path}.${keyword}`, record[keyword]] as const,
        ),
      ];
      return children.flatMap(([childPath, child]) => emptySchemas(child, childPath));
    };
    for (const tool of tools.values()) {
      expect(emptySchemas(tool.inputSchema, `${tool.name}.inputSchema`)).toEqual([]);
      expect(emptySchemas(tool.outputSchema, `${tool.name}.outputSchema`)).toEqual([]);
      // Results may still carry fields a later service adds: no keyword forbids them.
      expect(tool.outputSchema).not.toHaveProperty('additionalProperties');
    }
  });

  it('describes every tool and argument for a model choosing among them', () => {
    for (const tool of tools.values()) {
      expect(tool.title).toBeTruthy();
      // What it does, what it returns, when to use it.
      expect(tool.description).toMatch(/Returns|returns/);
      expect(tool.description).toMatch(/Use it/);
      const properties = Object.entries(
        (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>,
      );
      for (const [name, property] of properties) {
        expect(property.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('marks get_project read-only and the others as changing state, not idempotent', () => {
    expect(tools.get('get_project')?.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
    });
    for (const name of ['create_project', 'send_message']) {
      expect(tools.get(name)?.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
      });
    }
    // The agent's reply comes from outside the conversation; projects are the service's own.
    expect(tools.get('send_message')?.annotations?.openWorldHint).toBe(true);
    expect(tools.get('create_project')?.annotations?.openWorldHint).toBe(false);
  });
});

describe('tools/call', () => {
  it('create_project creates the project and returns what projects.create returns', async () => {
    const result = await callTool(mcp, 'create_project', {
      name: 'Support desk',
      agentId: 'agent_support',
      metadata: { launchDate: '2026-12-01', tier: 2 },
    });

    expect(result.isError).toBeFalsy();
    const [stored] = server.service.projects();
    expect(stored).toMatchObject({
      name: 'Support desk',
      agentId: 'agent_support',
      metadata: { launchDate: '2026-12-01', tier: 2 },
    });
    expect(result.structuredContent).toEqual({
      id: stored?.id,
      name: 'Support desk',
      status: 'active',
      createdAt: stored?.createdAt,
    });
    expect(textOf(result)).toBe(
      `Created project ${stored?.id} named "Support desk" (status active, created ${stored?.createdAt}).`,
    );
  });

  it('get_project returns the whole project, agent and metadata included', async () => {
    const client = new Client({ apiKey: API_KEY, baseUrl: server.baseUrl });
    const created = await client.projects.create({
      name: 'Billing',
      agentId: 'agent_billing',
      metadata: { tier: 3 },
    });

    const result = await callTool(mcp, 'get_project', { id: created.id });

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await client.projects.get(created.id));
    expect(result.structuredContent).toMatchObject({
      agentId: 'agent_billing',
      metadata: { tier: 3 },
    });
    expect(textOf(result)).toContain(`Project ${created.id} named "Billing": agent agent_billing`);
  });

  it("send_message returns the agent's reply and suggestions", async () => {
    const created = await callTool(mcp, 'create_project', { name: 'Chat', agentId: 'agent_7' });
    const projectId = (created.structuredContent as { id: string }).id;

    const result = await callTool(mcp, 'send_message', { projectId, message: 'What can you do?' });

    expect(result.isError).toBeFalsy();
    const reply = result.structuredContent as { message: string; suggestions: unknown[] };
    expect(reply.message).toMatch(/agent_7/);
    expect(reply.suggestions.length).toBeGreaterThan(0);
    expect(textOf(result)).toBe(
      `${reply.message}\n\nSuggested follow-ups:\n${reply.suggestions.map((s) => `- ${s}`).join('\n')}`,
    );
    expect(server.service.requests.at(-1)?.body).toEqual({ message: 'What can you do?' });
  });

  it('answers an unknown project with a tool error that names it and gives the request id', async () => {
    const result = await callTool(mcp, 'get_project', { id: 'proj_missing' });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(
      /^NotFoundError: GET \/v1\/projects\/proj_missing failed with status 404: .*proj_missing.* \(request id req_\w+\)$/,
    );
  });

  it.each(badArguments)(
    'refuses %s with bad arguments %j before any request',
    async (tool, args, field) => {
      const result = await callTool(mcp, tool, args);

      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`Invalid arguments for tool ${tool}`);
      expect(textOf(result)).toContain(field);
      expect(server.service.requests).toEqual([]);
    },
  );

  it('retries a 503 under the hood, with one Idempotency-Key, and succeeds', async () => {
    server.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });

    const result = await callTool(mcp, 'create_project', { name: 'Retried', agentId: 'agent_1' });

    expect(result.isError).toBeFalsy();
    expect(server.service.requests.map((request) => request.status)).toEqual([503, 201]);
    const keys = server.service.requests.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(server.service.projects()).toHaveLength(1);
  });

  it('gives the last error once the retries run out', async () => {
    const unavailable = { kind: 'status', status: 503, headers: { 'retry-after': '0' } } as const;
    server.service.enqueue(unavailable, unavailable, unavailable);

    const result = await callTool(mcp, 'get_project', { id: 'proj_1' });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^InternalServerError: GET \/v1\/projects\/proj_1 failed with status 503/,
    );
    expect(textOf(result)).toMatch(/\(request id req_\w+\)$/);
    expect(server.service.requests).toHaveLength(3);
  });

  it('aborts the request when the MCP client cancels the call', async () => {
    const signals: AbortSignal[] = [];
    await mcp.close();
    await connect(
      new Client({
        apiKey: API_KEY,
        baseUrl: server.baseUrl,
        fetch: (input, init) => {
          const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
          if (signal) signals.push(signal);
          return fetch(input, init);
        },
      }),
    );
    server.service.enqueue({ kind: 'hang' });
    const controller = new AbortController();

    const call = mcp.callTool(
      { name: 'get_project', arguments: { id: 'proj_1' } },
      { signal: controller.signal },
    );
    await expect.poll(() => server.service.requests.length).toBe(1);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    controller.abort('the user moved on');

    await expect(call).rejects.toThrow('the user moved on');
    await expect.poll(() => signals.map((signal) => signal.aborted)).toEqual([true]);
    // Cancelled, not failed: nothing is retried.
    expect(server.service.requests).toHaveLength(1);
  });
});

describe('secrets', () => {
  it('never sends the key, whatever the call and however it fails', async () => {
    server.service.enqueue(
      // A server that echoes the key back in its error message.
      {
        kind: 'status',
        status: 400,
        body: { error: { type: 'invalid_request', message: `Bad request from key ${API_KEY}` } },
      },
    );
    await callTool(mcp, 'create_project', { name: 'Echo', agentId: 'agent_1' });
    const created = await callTool(mcp, 'create_project', { name: 'Ok', agentId: 'agent_1' });
    const id = (created.structuredContent as { id: string }).id;
    await callTool(mcp, 'get_project', { id });
    await callTool(mcp, 'send_message', { projectId: id, message: 'Hi' });
    await callTool(mcp, 'get_project', { id: 'proj_missing' });
    await callTool(mcp, 'send_message', { projectId: '', message: 'Hi' });
    await mcp.listTools();

    // Every request carried the key; nothing the server said did.
    expect(server.service.requests.map((request) => request.headers.authorization)).toContain(
      `Bearer ${API_KEY}`,
    );
    expect(transport.transcript()).toContain('[redacted]');
    expect(transport.transcript()).not.toContain(API_KEY);
  });

  it('does not pass on the message of an error that does not come from the SDK', async () => {
    const leaky = {
      projects: {
        create: () => Promise.reject(new TypeError(`fetch failed for ${API_KEY}`)),
        get: () => Promise.reject(new Error('unused')),
      },
      chat: { send: () => Promise.reject(new Error('unused')) },
    } as unknown as Client;
    await mcp.close();
    await connect(leaky);

    const result = await callTool(mcp, 'create_project', { name: 'Demo', agentId: 'agent_1' });

    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'The call failed with an unexpected TypeError; its message is withheld, as it could hold a credential.',
    );
    expect(transport.transcript()).not.toContain(API_KEY);
  });

  it('keeps the key out of a connection failure whose cause quotes the request', async () => {
    await mcp.close();
    await connect(quotingClient(server.baseUrl));

    const results = [
      await callTool(mcp, 'create_project', { name: 'Demo', agentId: 'agent_1' }),
      await callTool(mcp, 'get_project', { id: 'proj_1' }),
      await callTool(mcp, 'send_message', { projectId: 'proj_1', message: 'Hi' }),
    ];

    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^APIConnectionError: .*Authorization: Bearer \[redacted\]/);
    }
    expect(textsWithSecret([transport.transcript()], QUOTED_KEY)).toEqual([]);
  });
});

describe('createMcpServer', () => {
  it.each([
    ['no options', undefined],
    ['no client', {}],
    ['a client of another kind', { client: { projects: {} } }],
  ])('refuses %s with a ConfigurationError, an AgentChatError', (_, options) => {
    expect(() => createMcpServer(options as never)).toThrow(ConfigurationError);
    expect(() => createMcpServer(options as never)).toThrow(AgentChatError);
    expect(() => createMcpServer(options as never)).toThrow(/needs \{ client \}/);
  });

  it('names itself agentchat, at the SDK version, with instructions for the model', async () => {
    const { VERSION } = await import('../../src/index.js');
    expect(mcp.getServerVersion()).toMatchObject({ name: 'agentchat', version: VERSION });
    expect(mcp.getInstructions()).toMatch(/create_project.*get_project.*send_message/s);
  });
});
