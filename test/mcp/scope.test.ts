/**
 * Tool scopes (`tools`, `readOnly`) and the wording of refused arguments, in process: the official
 * MCP client over a linked in-memory transport, the tools calling the mock service on 127.0.0.1.
 */
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChatError, Client, ConfigurationError } from '../../src/index.js';
import { createMcpServer, type McpToolScope } from '../../src/mcp/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { callTool, connectRecorded, textOf } from '../helpers/mcp-client.js';

const API_KEY = 'sk_mcp_scope_3a81f0';
let service: MockServer;
beforeAll(async () => {
  service = await startMockServer({ apiKeys: [API_KEY] });
});
afterAll(() => service?.close());

const client = () => new Client({ apiKey: API_KEY, baseUrl: service.baseUrl });

/** The tools a server with `scope` lists, in order, and the instructions it gives. */
async function offered(scope: McpToolScope): Promise<{ tools: string[]; instructions: string }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client: client(), ...scope }).connect(serverSide);
  const { mcp } = await connectRecorded(clientSide);
  try {
    const tools = (await mcp.listTools()).tools.map((tool) => tool.name);
    return { tools, instructions: mcp.getInstructions() ?? '' };
  } finally {
    await mcp.close();
  }
}

async function toolNames(scope: McpToolScope): Promise<string[]> {
  return (await offered(scope)).tools;
}

/** The message createMcpServer refuses `scope` with; fails the test when it does not. */
function refusal(scope: unknown): string {
  try {
    createMcpServer({ client: client(), ...(scope as McpToolScope) });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(AgentChatError);
    return (error as Error).message;
  }
  throw new Error('expected createMcpServer to refuse the scope');
}

describe('tool scope', () => {
  it('offers all three tools by default', async () => {
    expect(await toolNames({})).toEqual(['create_project', 'get_project', 'send_message']);
  });

  it('offers only get_project when read-only, and names only it to the model', async () => {
    const { tools, instructions } = await offered({ readOnly: true });
    expect(tools).toEqual(['get_project']);
    expect(instructions).toContain('get_project reads a project by id.');
    expect(instructions).not.toMatch(/create_project|send_message/);
  });

  it('offers the tools named, in their usual order', async () => {
    expect(await toolNames({ tools: ['send_message', 'get_project'] })).toEqual([
      'get_project',
      'send_message',
    ]);
  });

  it('takes a read-only list of read-only tools', async () => {
    expect(await toolNames({ tools: ['get_project'], readOnly: true })).toEqual(['get_project']);
  });

  it('refuses an unknown tool, naming the one meant', () => {
    expect(refusal({ tools: ['get_projects'] })).toBe(
      'Unknown tool "get_projects"; did you mean get_project? (the tools are create_project, get_project, send_message).',
    );
    expect(refusal({ tools: ['delete_everything'] })).toBe(
      'Unknown tool "delete_everything" (the tools are create_project, get_project, send_message).',
    );
  });

  it('refuses an empty list', () => {
    expect(refusal({ tools: [] })).toBe(
      'tools must list one or more of create_project, get_project, send_message.',
    );
  });

  it('refuses a tool that changes something in a read-only scope', () => {
    expect(refusal({ tools: ['get_project', 'create_project'], readOnly: true })).toMatch(
      /^A read-only server cannot offer create_project, which changes something/,
    );
  });
});

describe('refused arguments', () => {
  it('name the argument probably meant, as the client does', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer({ client: client() }).connect(serverSide);
    const { mcp } = await connectRecorded(clientSide);
    try {
      const result = await callTool(mcp, 'create_project', { name: 'Demo', agentID: 'agent_1' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Input validation error: Invalid arguments for tool create_project: agentId: is ' +
          'required (expected a string), agentID: is not a known field; did you mean agentId?',
      );
      const wrongType = await callTool(mcp, 'get_project', { id: 42 });
      expect(textOf(wrongType)).toBe(
        'Input validation error: Invalid arguments for tool get_project: id: expected a string, received number',
      );
    } finally {
      await mcp.close();
    }
    expect(service.service.requests).toEqual([]);
  });
});
