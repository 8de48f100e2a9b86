/**
 * agentchat/langchain in LangChain's own agent loop (`createAgent`), a chat model scripted to call
 * the tools (./scripted-chat-model.ts), against the mock service on 127.0.0.1.
 */
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Command, MemorySaver } from '@langchain/langgraph';
import {
  type AgentMiddleware,
  createAgent,
  createMiddleware,
  humanInTheLoopMiddleware,
  type InterruptOnConfig,
} from 'langchain';
import semver from 'semver';
import { describe, expect, it, vi } from 'vitest';
import { type Client, ConfigurationError, NotFoundError } from '../../src/index.js';
import { agentchatInterruptOn, agentchatTools } from '../../src/langchain/index.js';
import { installedVersion } from '../helpers/installed-version.js';
import { QUOTED_KEY, quotingClient, textsWithSecret } from '../helpers/quoting-fetch.js';
import { useMockServer } from '../helpers/use-mock-service.js';
import { scriptedChatModel } from './scripted-chat-model.js';

const API_KEY = 'sk_langchain_tools_4b8e2f61';

/**
 * LangChain's own `humanInTheLoopMiddleware`, typed as its docs describe it: under
 * `exactOptionalPropertyTypes` (this repository's setting) langchain 1.5's declarations reduce
 * its options to `never`.
 */
const approvalMiddleware = humanInTheLoopMiddleware as unknown as (options: {
  interruptOn: Record<string, boolean | InterruptOnConfig>;
}) => AgentMiddleware;

const mock = useMockServer(API_KEY);

/** The last tool message the model was given. */
function lastToolMessage(messages: readonly BaseMessage[]): ToolMessage {
  const found = messages.filter((message) => ToolMessage.isInstance(message)).at(-1);
  if (!found) throw new Error('the model was given no tool message');
  return found;
}

/** What the model read of the last tool result, as JSON. */
function lastResult(messages: readonly BaseMessage[]): Record<string, unknown> {
  return JSON.parse(lastToolMessage(messages).text) as Record<string, unknown>;
}

/** An answer of the model calling one tool. */
function callTool(name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({ content: '', tool_calls: [{ name, args, id: `call_${name}` }] });
}

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('the tools in createAgent', () => {
  it('create, read and chat, each typed result reaching the model as JSON', async () => {
    const model = scriptedChatModel()
      .respondWithTools([
        { name: 'create_project', args: { name: 'Launch', agentId: 'agent_support' } },
      ])
      .respond((messages) => callTool('get_project', { id: lastResult(messages).id }))
      .respond((messages) =>
        callTool('send_message', { projectId: lastResult(messages).id, message: 'A plan?' }),
      )
      .respond(new AIMessage('Done.'));

    const agent = createAgent({ model, tools: agentchatTools(mock.client) });
    const { messages } = await agent.invoke(ask('Create a project and ask its agent for a plan.'));

    expect(messages.at(-1)?.text).toBe('Done.');
    const [project] = mock.server.service.projects();
    expect(project).toMatchObject({ name: 'Launch', agentId: 'agent_support' });
    const seen = model.calls.slice(1).map((call) => lastToolMessage(call.messages));
    expect(seen.map((message) => [message.name, message.status])).toEqual([
      ['create_project', 'success'],
      ['get_project', 'success'],
      ['send_message', 'success'],
    ]);
    const [created, read, reply] = seen.map((message) => JSON.parse(message.text));
    expect(created).toEqual({
      id: project?.id,
      name: 'Launch',
      status: 'active',
      createdAt: expect.any(String),
    });
    expect(read).toEqual(
      expect.objectContaining({ id: project?.id, agentId: 'agent_support', metadata: {} }),
    );
    expect(reply).toEqual({ message: expect.any(String), suggestions: expect.any(Array) });
    // The program finds the client's typed value as each message's artifact.
    expect(seen.map((message) => message.artifact)).toEqual([created, read, reply]);
  });

  it("gives a missing project as LangChain's error ToolMessage, its message without the key", async () => {
    const model = scriptedChatModel()
      .respondWithTools([{ name: 'get_project', args: { id: 'proj_missing' } }])
      .respond(new AIMessage('It does not exist.'));

    const agent = createAgent({ model, tools: agentchatTools(mock.client) });
    const { messages } = await agent.invoke(ask('Read proj_missing.'));

    expect(messages.at(-1)?.text).toBe('It does not exist.');
    const seen = lastToolMessage(model.calls[1]?.messages ?? []);
    expect(seen.status).toBe('error');
    expect(seen.text).toMatch(
      /^NotFoundError: .*No project with id "proj_missing".*request id req_/,
    );
    expect(JSON.stringify(model.calls.map((call) => call.messages))).not.toContain(API_KEY);
  });

  it('gives the error ToolMessage through tool middleware too, where a thrown error would end the run', async () => {
    const model = scriptedChatModel()
      .respondWithTools([{ name: 'get_project', args: { id: 'proj_missing' } }])
      .respond(new AIMessage('It does not exist.'));
    // Any wrapToolCall middleware (retries, logging): createAgent rethrows what a tool throws
    // through one unless handleToolErrors is true.
    const passThrough = createMiddleware({
      name: 'PassThrough',
      wrapToolCall: (request, handler) => handler(request),
    });

    const agent = createAgent({
      model,
      tools: agentchatTools(mock.client),
      middleware: [passThrough],
    });
    const { messages } = await agent.invoke(ask('Read proj_missing.'));

    expect(messages.at(-1)?.text).toBe('It does not exist.');
    expect(lastToolMessage(model.calls[1]?.messages ?? [])).toMatchObject({
      status: 'error',
      text: expect.stringMatching(/^NotFoundError: /),
    });
  });

  it('refuses arguments outside the schema, naming the field, and sends nothing', async () => {
    const model = scriptedChatModel()
      .respondWithTools([{ name: 'create_project', args: { name: 'X', agentID: 'agent_1' } }])
      .respond(new AIMessage('Oops.'));

    const agent = createAgent({ model, tools: agentchatTools(mock.client) });
    await agent.invoke(ask('Go'));

    const seen = lastToolMessage(model.calls[1]?.messages ?? []);
    // LangChain's own refusal, which langchain marks an error from 1.5.14 on.
    expect(seen.status).toBe(
      semver.gte(installedVersion('langchain'), '1.5.14') ? 'error' : undefined,
    );
    expect(seen.text).toMatch(/did not match expected schema/);
    expect(seen.text).toMatch(/agentId/);
    expect(mock.server.service.requestLog()).toEqual([]);
  });
});

describe('the tools outside an agent', () => {
  it('return the typed value for bare arguments, and throw the SDK error', async () => {
    const [getProject] = agentchatTools(mock.client, { readOnly: true });
    await expect(getProject?.invoke({ id: 'proj_missing' })).rejects.toBeInstanceOf(NotFoundError);
    const created = await mock.client.projects.create({ name: 'Bare', agentId: 'agent_1' });
    await expect(getProject?.invoke({ id: created.id })).resolves.toMatchObject({
      id: created.id,
      name: 'Bare',
    });
  });

  it('answer a tool call from bindTools with a ToolMessage, as the agent does', async () => {
    const [getProject] = agentchatTools(mock.client, { readOnly: true });
    const answer = await getProject?.invoke({
      name: 'get_project',
      args: { id: 'proj_missing' },
      id: 'call_1',
      type: 'tool_call',
    });
    expect(answer).toBeInstanceOf(ToolMessage);
    expect(answer).toMatchObject({ status: 'error', tool_call_id: 'call_1' });
  });

  it('tell any other error by its class alone', async () => {
    // A client of another make whose read fails with an error that is not the SDK's.
    const fail = () => Promise.reject(new TypeError(`cannot reach the service with ${API_KEY}`));
    const broken = { projects: { create: fail, get: fail }, chat: { send: fail } } as never;
    const [getProject] = agentchatTools(broken, { readOnly: true });
    const answer = await getProject?.invoke({
      name: 'get_project',
      args: { id: 'proj_1' },
      id: 'call_1',
      type: 'tool_call',
    });
    expect(answer).toMatchObject({ status: 'error' });
    expect((answer as ToolMessage).text).toMatch(/^The call failed with an unexpected TypeError;/);
    expect((answer as ToolMessage).text).not.toContain(API_KEY);
    await expect(getProject?.invoke({ id: 'proj_1' })).rejects.toThrow(
      /^The call failed with an unexpected TypeError;/,
    );
  });
});

describe('approval at the agent: humanInTheLoopMiddleware with agentchatInterruptOn', () => {
  const createCall = { name: 'create_project', args: { name: 'Launch', agentId: 'agent_support' } };

  function approvingAgent() {
    const model = scriptedChatModel()
      .respondWithTools([createCall])
      .respond(new AIMessage('Created.'));
    const agent = createAgent({
      model,
      tools: agentchatTools(mock.client),
      middleware: [
        approvalMiddleware({
          interruptOn: agentchatInterruptOn({ needsApproval: ['create_project'] }),
        }),
      ],
      checkpointer: new MemorySaver(),
    });
    return { agent, model };
  }

  it('stops the loop at an interrupt and sends nothing until approved', async () => {
    const { agent } = approvingAgent();
    const config = { configurable: { thread_id: 'approve' } };

    const asked = await agent.invoke(ask('Create a project.'), config);

    expect(asked.__interrupt__?.[0]?.value).toMatchObject({
      actionRequests: [{ name: 'create_project', args: createCall.args }],
    });
    expect(mock.server.service.requestLog()).toEqual([]);

    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: 'approve' }] } }),
      config,
    );
    expect(done.messages.at(-1)?.text).toBe('Created.');
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(['Launch']);
  });

  it('sends nothing when the person rejects the call', async () => {
    const { agent } = approvingAgent();
    const config = { configurable: { thread_id: 'reject' } };
    await agent.invoke(ask('Create a project.'), config);

    await agent.invoke(
      new Command({ resume: { decisions: [{ type: 'reject', message: 'Not now.' }] } }),
      config,
    );
    expect(mock.server.service.requestLog()).toEqual([]);
  });

  it('gives interruptOn for the tools named, all tools with true, among those offered', () => {
    expect(agentchatInterruptOn({ needsApproval: ['send_message'] })).toEqual({
      send_message: true,
    });
    expect(agentchatInterruptOn({ needsApproval: true })).toEqual({
      create_project: true,
      get_project: true,
      send_message: true,
    });
    expect(agentchatInterruptOn({ needsApproval: true, readOnly: true })).toEqual({
      get_project: true,
    });
    expect(agentchatInterruptOn({})).toEqual({});
  });

  it('is refused on the tools, with a ConfigurationError pointing to the middleware', () => {
    const refused = () => agentchatTools(mock.client, { needsApproval: true } as never);
    expect(refused).toThrow(ConfigurationError);
    expect(refused).toThrow(/humanInTheLoopMiddleware\(\{ interruptOn: agentchatInterruptOn/);
    expect(() =>
      agentchatTools(mock.client, { needsApproval: ['create_project'] } as never),
    ).toThrow(ConfigurationError);
    expect(agentchatTools(mock.client, { needsApproval: false })).toHaveLength(3);
  });
});

describe('tools and readOnly', () => {
  it('offer what they say, to the model too', async () => {
    const names = (options: Parameters<typeof agentchatTools>[1]) =>
      agentchatTools(mock.client, options).map((tool) => tool.name);
    expect(names({})).toEqual(['create_project', 'get_project', 'send_message']);
    expect(names({ readOnly: true })).toEqual(['get_project']);
    expect(names({ tools: ['send_message'] })).toEqual(['send_message']);

    const model = scriptedChatModel().respond(new AIMessage('Nothing to do.'));
    const bindTools = vi.spyOn(model, 'bindTools');
    const agent = createAgent({ model, tools: agentchatTools(mock.client, { readOnly: true }) });
    await agent.invoke(ask('Hello'));

    const offered = (bindTools.mock.calls[0]?.[0] ?? []).map((tool) =>
      convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]),
    );
    expect(offered).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_project',
          description: expect.stringMatching(/^Reads one project by its id/),
          parameters: expect.objectContaining({
            type: 'object',
            properties: { id: expect.objectContaining({ type: 'string' }) },
            required: ['id'],
          }),
        },
      },
    ]);
  });

  it('leave metadata open to any JSON object, which the model can fill', async () => {
    const model = scriptedChatModel()
      .respondWithTools([
        {
          name: 'create_project',
          args: { name: 'Tagged', agentId: 'agent_1', metadata: { tier: 2, tags: ['a'] } },
        },
      ])
      .respond(new AIMessage('Created.'));
    const agent = createAgent({ model, tools: agentchatTools(mock.client) });
    await agent.invoke(ask('Go'));
    expect(mock.server.service.projects().map((project) => project.metadata)).toEqual([
      { tier: 2, tags: ['a'] },
    ]);
  });

  it('are refused when wrong, with a ConfigurationError that says what to write', () => {
    expect(() =>
      agentchatTools(mock.client, { readOnly: true, tools: ['create_project'] }),
    ).toThrow(ConfigurationError);
    expect(() => agentchatTools(mock.client, { tools: ['get_projects' as never] })).toThrow(
      /did you mean get_project\?/,
    );
    expect(() => agentchatTools(mock.client, { readonly: true } as never)).toThrow(
      /Unknown option readonly of agentchat\/langchain; did you mean readOnly\?/,
    );
    expect(() => agentchatTools({} as Client)).toThrow(ConfigurationError);
    expect(() => agentchatInterruptOn({ needsApproval: ['nope' as never] })).toThrow(
      ConfigurationError,
    );
  });
});

describe('abort', () => {
  it("the agent's signal reaches the request in flight", async () => {
    const { client: watched, signals } = mock.watchedClient();
    mock.server.service.enqueue({ kind: 'hang' });
    const model = scriptedChatModel().respondWithTools([
      { name: 'get_project', args: { id: 'proj_1' } },
    ]);
    const agent = createAgent({ model, tools: agentchatTools(watched) });
    const controller = new AbortController();

    const run = agent.invoke(ask('Read proj_1.'), { signal: controller.signal });
    await expect.poll(() => mock.server.service.requestLog().length).toBe(1);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    controller.abort(new Error('the user moved on'));

    await expect(run).rejects.toThrow('the user moved on');
    await expect.poll(() => signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(mock.server.service.requestLog()).toHaveLength(1);
    // The model was not asked again after the aborted call.
    expect(model.callCount).toBe(1);
  });
});

describe('a connection failure whose cause quotes the request', () => {
  it('reaches the model as the error ToolMessage without the key in any form', async () => {
    const model = scriptedChatModel()
      .respondWithTools([{ name: 'get_project', args: { id: 'proj_1' } }])
      .respond(new AIMessage('Unreachable.'));

    const agent = createAgent({ model, tools: agentchatTools(quotingClient(mock.server.baseUrl)) });
    const { messages } = await agent.invoke(ask('Read proj_1.'));

    const seen = lastToolMessage(model.calls[1]?.messages ?? []);
    expect(seen.status).toBe('error');
    expect(seen.text).toMatch(/^APIConnectionError: .*Authorization: Bearer \[redacted\]/);
    const shown = [
      JSON.stringify(model.calls.map((call) => call.messages)),
      JSON.stringify(messages),
    ];
    expect(textsWithSecret(shown, QUOTED_KEY)).toEqual([]);
  });
});
