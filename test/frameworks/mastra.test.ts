/**
 * agentchat/mastra in Mastra's own agent loop (`Agent.generate` and `Agent.stream`), with the AI
 * SDK's mock model (Mastra agents take AI SDK models) scripted to call the tools, against the mock
 * service on 127.0.0.1.
 */
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { type Client, ConfigurationError, NotFoundError } from '../../src/index.js';
import { type AgentChatToolSet, agentchatTools } from '../../src/mastra/index.js';
import { createProject, getProject, sendMessage } from '../../src/tools/table.js';
import { QUOTED_KEY, quotingClient, textsWithSecret } from '../helpers/quoting-fetch.js';
import { useMockServer } from '../helpers/use-mock-service.js';
import { lastToolOutput, type ModelStep, scriptedModel } from './scripted-model.js';

// Mastra reports feature usage to its own servers from some code paths; tests send nothing
// beyond loopback.
process.env.MASTRA_TELEMETRY_DISABLED = '1';

const API_KEY = 'sk_mastra_tools_4b8e2f61';

const mock = useMockServer(API_KEY);

type AgentConfig = ConstructorParameters<typeof Agent>[0];

/** The tool table, in the order the tools are offered. */
const TOOLS = [createProject, getProject, sendMessage];

/**
 * A Mastra agent with `tools` and a model answering `steps`, registered on a Mastra instance with
 * in-memory storage: where a suspended run waits for its approval.
 */
function scriptedAgent(tools: AgentChatToolSet, steps: readonly ModelStep[]) {
  const { model, prompts } = scriptedModel(steps);
  return { agent: registeredAgent(model, tools), model, prompts };
}

/** An agent of `model` and `tools` on a Mastra instance with in-memory storage. */
function registeredAgent(model: MockLanguageModelV3, tools: AgentChatToolSet): Agent {
  const agent = new Agent({
    id: 'projects',
    name: 'Projects',
    instructions: 'You manage projects.',
    // ai 7's copy of the V3 model types is not the one Mastra declares; at run time Mastra takes
    // any V3 model.
    model: model as unknown as AgentConfig['model'],
    tools,
  });
  new Mastra({ agents: { projects: agent }, storage: new InMemoryStore(), logger: false });
  return agent;
}

/**
 * A model for `agent.stream`, as scriptedModel is for `agent.generate`: it streams a call of
 * `get_project` for proj_1, then the text "Read.".
 */
function streamingAgent(tools: AgentChatToolSet) {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  const call = { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_project' } as const;
  let streams = 0;
  const model = new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => {
      abortSignal?.throwIfAborted();
      streams += 1;
      const chunks =
        streams === 1
          ? [
              { ...call, input: JSON.stringify({ id: 'proj_1' }) },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
            ]
          : [
              { type: 'text-start', id: 'text_1' },
              { type: 'text-delta', id: 'text_1', delta: 'Read.' },
              { type: 'text-end', id: 'text_1' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ];
      return { stream: simulateReadableStream({ chunks: chunks as never[] }) };
    },
  });
  return { agent: registeredAgent(model, tools), model };
}

/** The tool names a model was offered on its first step. */
function offeredTo(model: MockLanguageModelV3): readonly string[] | undefined {
  return model.doGenerateCalls[0]?.tools?.map((tool) => tool.name);
}

describe('the tools in an Agent', () => {
  it('create, read and chat, each typed result reaching the model', async () => {
    const { agent, prompts } = scriptedAgent(agentchatTools(mock.client), [
      () => ({
        calls: [{ name: 'create_project', input: { name: 'Launch', agentId: 'agent_support' } }],
      }),
      (prompt) => {
        const created = lastToolOutput(prompt) as { value: { id: string } };
        return { calls: [{ name: 'get_project', input: { id: created.value.id } }] };
      },
      (prompt) => {
        const project = lastToolOutput(prompt) as { value: { id: string } };
        return {
          calls: [
            { name: 'send_message', input: { projectId: project.value.id, message: 'A plan?' } },
          ],
        };
      },
      () => ({ text: 'Done.' }),
    ]);

    const result = await agent.generate('Create a project and ask its agent for a plan.', {
      maxSteps: 5,
    });

    expect(result.text).toBe('Done.');
    const [project] = mock.server.service.projects();
    expect(project).toMatchObject({ name: 'Launch', agentId: 'agent_support' });
    // Each result reached the model as the SDK's typed value, in JSON.
    expect(lastToolOutput(prompts[1] ?? [])).toEqual({
      type: 'json',
      value: { id: project?.id, name: 'Launch', status: 'active', createdAt: expect.any(String) },
    });
    expect(lastToolOutput(prompts[2] ?? [])).toEqual({
      type: 'json',
      value: expect.objectContaining({ id: project?.id, agentId: 'agent_support', metadata: {} }),
    });
    expect(lastToolOutput(prompts[3] ?? [])).toEqual({
      type: 'json',
      value: { message: expect.any(String), suggestions: expect.any(Array) },
    });
    // The run's own record holds the typed results too.
    const results = result.steps.flatMap((step) =>
      step.content.filter((part) => part.type === 'tool-result'),
    );
    expect(results.map((part) => part.toolName)).toEqual([
      'create_project',
      'get_project',
      'send_message',
    ]);
  });

  it("gives a missing project as Mastra's tool error: its class and message, without the key", async () => {
    const { agent, prompts } = scriptedAgent(agentchatTools(mock.client), [
      () => ({ calls: [{ name: 'get_project', input: { id: 'proj_missing' } }] }),
      () => ({ text: 'It does not exist.' }),
    ]);

    const result = await agent.generate('Read proj_missing.', { maxSteps: 3 });

    expect(result.text).toBe('It does not exist.');
    const seen = lastToolOutput(prompts[1] ?? []) as { type: string; value: string };
    expect(seen.type).toBe('error-text');
    // What every other face tells a model: the error's class, its message and the request id.
    expect(seen.value).toMatch(
      /^NotFoundError: GET \/v1\/projects\/proj_missing failed with status 404: No project with id "proj_missing" \(request id req_\w+\)$/,
    );
    expect(JSON.stringify(prompts)).not.toContain(API_KEY);
    expect(JSON.stringify(result.steps)).not.toContain(API_KEY);
  });

  it('replaces any other error by one naming only its class', async () => {
    // A client whose call fails with an error of no SDK's making, its message holding a secret:
    // what no real client throws, so a stand-in for one.
    const failing = {
      projects: {
        create: mock.client.projects.create.bind(mock.client.projects),
        get: () => Promise.reject(new TypeError(`bad header Bearer ${API_KEY}`)),
      },
      chat: mock.client.chat,
    } as unknown as Client;
    const { agent, prompts } = scriptedAgent(agentchatTools(failing), [
      () => ({ calls: [{ name: 'get_project', input: { id: 'proj_1' } }] }),
      () => ({ text: 'Failed.' }),
    ]);

    await agent.generate('Read proj_1.', { maxSteps: 3 });

    expect(lastToolOutput(prompts[1] ?? [])).toEqual({
      type: 'error-text',
      value: expect.stringMatching(/^The call failed with an unexpected TypeError; its message/),
    });
    expect(JSON.stringify(prompts)).not.toContain(API_KEY);
  });

  it("refuses arguments with the client's own words, sending nothing", async () => {
    const { agent, prompts } = scriptedAgent(agentchatTools(mock.client), [
      () => ({ calls: [{ name: 'create_project', input: { name: 'X', agentID: 'agent_1' } }] }),
      () => ({ text: 'Oops.' }),
    ]);

    await agent.generate('Go', { maxSteps: 3 });

    expect(JSON.stringify(lastToolOutput(prompts[1] ?? []))).toMatch(/did you mean agentId/);
    expect(mock.server.service.requestLog()).toEqual([]);
  });
});

describe('needsApproval', () => {
  const createCall = () => ({
    calls: [{ name: 'create_project', input: { name: 'Launch', agentId: 'agent_support' } }],
  });

  it('suspends the run and sends nothing until approveToolCallGenerate', async () => {
    const { agent, prompts } = scriptedAgent(
      agentchatTools(mock.client, { needsApproval: ['create_project'] }),
      [createCall, () => ({ text: 'Created.' })],
    );

    const asked = await agent.generate('Create a project.', { maxSteps: 3 });

    expect(asked.finishReason).toBe('suspended');
    expect(asked.suspendPayload).toMatchObject({
      toolName: 'create_project',
      args: { name: 'Launch', agentId: 'agent_support' },
    });
    expect(mock.server.service.requestLog()).toEqual([]);

    const approved = await agent.approveToolCallGenerate({
      runId: asked.runId as string,
      toolCallId: (asked.suspendPayload as { toolCallId: string }).toolCallId,
    });

    expect(approved.text).toBe('Created.');
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(['Launch']);
    expect(lastToolOutput(prompts[1] ?? [])).toMatchObject({
      type: 'json',
      value: { name: 'Launch', status: 'active' },
    });
  });

  it('sends nothing when the call is declined', async () => {
    const { agent } = scriptedAgent(agentchatTools(mock.client, { needsApproval: true }), [
      createCall,
      () => ({ text: 'Not created.' }),
    ]);

    const asked = await agent.generate('Create a project.', { maxSteps: 3 });
    expect(asked.finishReason).toBe('suspended');
    const declined = await agent.declineToolCallGenerate({
      runId: asked.runId as string,
      toolCallId: (asked.suspendPayload as { toolCallId: string }).toolCallId,
    });

    expect(declined.text).toBe('Not created.');
    expect(mock.server.service.requestLog()).toEqual([]);
  });

  it('asks for every tool with true, for those named with a list, and for none by default', () => {
    const approval = (options?: Parameters<typeof agentchatTools>[1]) =>
      Object.values(agentchatTools(mock.client, options)).map((tool) => tool?.requireApproval);
    expect(approval({ needsApproval: true })).toEqual([true, true, true]);
    expect(approval({ needsApproval: ['send_message'] })).toEqual([false, false, true]);
    expect(approval()).toEqual([false, false, false]);
  });
});

describe('tools and readOnly', () => {
  it('offer what they say, to the model too', async () => {
    expect(Object.keys(agentchatTools(mock.client, { readOnly: true }))).toEqual(['get_project']);
    expect(Object.keys(agentchatTools(mock.client, { tools: ['send_message'] }))).toEqual([
      'send_message',
    ]);
    const { agent, model } = scriptedAgent(agentchatTools(mock.client, { readOnly: true }), [
      () => ({ text: 'Nothing to do.' }),
    ]);

    await agent.generate('Hello');

    expect(offeredTo(model)).toEqual(['get_project']);
    expect(model.doGenerateCalls[0]?.tools?.[0]).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
    const some = scriptedAgent(
      agentchatTools(mock.client, { tools: ['send_message', 'get_project'] }),
      [() => ({ text: 'Nothing to do.' })],
    );
    await some.agent.generate('Hello');
    expect(offeredTo(some.model)).toEqual(['get_project', 'send_message']);
  });

  // Mastra reshapes a tool's schema by the model's provider and id (its schema layers for
  // OpenAI, Anthropic...); the mock provider gets it untouched.
  it.each([
    ['the mock provider', 'mock-provider', 'mock-model-id'],
    ["OpenAI's Responses API", 'openai.responses', 'gpt-5'],
    ["OpenAI's Chat Completions", 'openai.chat', 'gpt-4o'],
    ['an OpenAI reasoning model', 'openai.responses', 'o3'],
    ["Anthropic's Messages API", 'anthropic.messages', 'claude-sonnet-4-5'],
  ])(
    'leave metadata open to any JSON object for %s, which the model can fill',
    async (_, provider, modelId) => {
      const { agent, model } = scriptedAgent(agentchatTools(mock.client), [
        () => ({
          calls: [
            {
              name: 'create_project',
              input: { name: 'Tagged', agentId: 'agent_1', metadata: { tier: 2 } },
            },
          ],
        }),
        () => ({ text: 'Created.' }),
      ]);

      // As a provider's model names itself: Mastra's schema layers go by these.
      Object.assign(model, { provider, modelId });

      await agent.generate('Go', { maxSteps: 3 });

      // Each tool reaches the model with the table's JSON Schema as it is (every description and
      // constraint, metadata open), and not strict, so OpenAI holds the model to nothing stricter.
      const offered = model.doGenerateCalls[0]?.tools ?? [];
      expect(offered.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
      for (const tool of TOOLS) {
        expect(offered.find(({ name }) => name === tool.name)).toEqual({
          type: 'function',
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema['~standard'].jsonSchema.input({ target: 'draft-07' }),
          strict: false,
          providerOptions: undefined,
        });
      }
      expect(mock.server.service.projects().map((project) => project.metadata)).toEqual([
        { tier: 2 },
      ]);
    },
  );

  it('are refused when wrong, with a ConfigurationError that says what to write', () => {
    expect(() =>
      agentchatTools(mock.client, { readOnly: true, tools: ['create_project'] }),
    ).toThrow(ConfigurationError);
    expect(() => agentchatTools(mock.client, { tools: ['get_projects' as never] })).toThrow(
      /did you mean get_project\?/,
    );
    expect(() => agentchatTools(mock.client, { needsAproval: true } as never)).toThrow(
      /Unknown option needsAproval of agentchat\/mastra; did you mean needsApproval\?/,
    );
    expect(() => agentchatTools({} as Client)).toThrow(
      /agentchat\/mastra's agentchatTools needs a Client/,
    );
  });
});

describe('abort', () => {
  it('the abortSignal of agent.generate reaches the request in flight', async () => {
    const { client: watched, signals } = mock.watchedClient({
      // Longer than the test waits: only the run's abort can end the request the mock holds.
      timeout: 600_000,
    });
    mock.server.service.enqueue({ kind: 'hang' });
    const { agent, prompts } = scriptedAgent(agentchatTools(watched), [
      () => ({ calls: [{ name: 'get_project', input: { id: 'proj_1' } }] }),
      () => ({ text: 'Read.' }),
    ]);
    const controller = new AbortController();

    const run = agent.generate('Read proj_1.', { maxSteps: 3, abortSignal: controller.signal });
    await expect.poll(() => mock.server.service.requestLog().length).toBe(1);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    controller.abort(new Error('the user moved on'));

    const result = await run;
    await expect.poll(() => signals.map((signal) => signal.aborted)).toEqual([true]);
    // The run ends at the aborted call: the model is not asked again, nothing else is sent.
    expect(prompts).toHaveLength(1);
    expect(result.text).toBe('');
    expect(mock.server.service.requestLog()).toHaveLength(1);
  });
});

describe('agent.stream', () => {
  it('suspends at a tool-call-approval chunk, sending nothing until approveToolCall', async () => {
    const { agent } = streamingAgent(
      agentchatTools(mock.client, { needsApproval: ['get_project'] }),
    );

    const asked = await agent.stream('Read proj_1.', { maxSteps: 3 });
    const chunks = [];
    for await (const chunk of asked.fullStream) chunks.push(chunk);

    const approval = chunks.find((chunk) => chunk.type === 'tool-call-approval');
    expect(approval?.payload).toMatchObject({ toolName: 'get_project', args: { id: 'proj_1' } });
    const { toolCallId } = (approval?.payload ?? {}) as { toolCallId: string };
    expect(mock.server.service.requestLog()).toEqual([]);

    const approved = await agent.approveToolCall({
      runId: asked.runId,
      toolCallId,
    });
    expect(await approved.text).toBe('Read.');
    expect(mock.server.service.requestLog().map((request) => request.path)).toEqual([
      expect.stringMatching(/\/v1\/projects\/proj_1$/),
    ]);
  });

  it("gives the SDK's error as the tool-error chunk's cause, with the text the model reads", async () => {
    const { agent } = streamingAgent(agentchatTools(mock.client));

    const run = await agent.stream('Read proj_1.', { maxSteps: 3 });
    const errors = [];
    for await (const chunk of run.fullStream) {
      if (chunk.type === 'tool-error') errors.push(chunk.payload.error);
    }

    expect(errors).toHaveLength(1);
    const cause = (errors[0] as Error).cause as NotFoundError;
    expect(cause).toBeInstanceOf(NotFoundError);
    expect(cause).toMatchObject({ status: 404, requestId: expect.stringMatching(/^req_/) });
    expect(cause.message).toMatch(
      /^NotFoundError: GET \/v1\/projects\/proj_1 failed with status 404/,
    );
  });

  it('passes its abortSignal to the request in flight', async () => {
    const { client: watched, signals } = mock.watchedClient({
      // Longer than the test waits: only the run's abort can end the request the mock holds.
      timeout: 600_000,
    });
    mock.server.service.enqueue({ kind: 'hang' });
    const { agent, model } = streamingAgent(agentchatTools(watched));
    const controller = new AbortController();

    const run = await agent.stream('Read proj_1.', { maxSteps: 3, abortSignal: controller.signal });
    const consumed = (async () => {
      for await (const _chunk of run.fullStream);
    })();
    await expect.poll(() => mock.server.service.requestLog().length).toBe(1);
    controller.abort(new Error('the user moved on'));
    await consumed;

    await expect.poll(() => signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(model.doStreamCalls).toHaveLength(1);
  });
});

describe('a connection failure whose cause quotes the request', () => {
  it("reaches the model as Mastra's tool error without the key in any form", async () => {
    const { agent, prompts } = scriptedAgent(agentchatTools(quotingClient(mock.server.baseUrl)), [
      () => ({ calls: [{ name: 'get_project', input: { id: 'proj_1' } }] }),
      () => ({ text: 'Unreachable.' }),
    ]);

    const result = await agent.generate('Read proj_1.', { maxSteps: 3 });

    const seen = lastToolOutput(prompts[1] ?? []) as { type: string; value: string };
    expect(seen.value).toMatch(/APIConnectionError|could not reach the service/);
    expect(seen.value).toContain('Authorization: Bearer [redacted]');
    const shown = [JSON.stringify(prompts), JSON.stringify(result.steps)];
    expect(textsWithSecret(shown, QUOTED_KEY)).toEqual([]);
  });
});
