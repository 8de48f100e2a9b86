/**
 * agentchat/openai-agents in the OpenAI Agents SDK's own loop (`run()` of an `Agent`), its
 * scripted test model (`@openai/agents/testing`) calling the tools, against the mock service on
 * 127.0.0.1.
 */
import { Agent, type AgentInputItem, type ModelRequest, run } from '@openai/agents';
import {
  assistantMessage,
  functionCall,
  modelResponder,
  type RecordedModelCall,
  ScriptedModel,
} from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { type Client, ConfigurationError } from '../../src/index.js';
import { agentchatTools } from '../../src/openai-agents/index.js';
import { QUOTED_KEY, quotingClient, textsWithSecret } from '../helpers/quoting-fetch.js';
import { useMockServer } from '../helpers/use-mock-service.js';

const API_KEY = 'sk_openai_agents_tools_5b8e2f4c';

const mock = useMockServer(API_KEY);

/** A step of the scripted model: tool calls (name, arguments), or a final text. */
type Step = { calls: Array<[string, Record<string, unknown>]> } | { text: string };

/** The Agents SDK's scripted model, answering each call from what the run gave it so far. */
function scriptedModel(steps: Array<(input: AgentInputItem[]) => Step>): ScriptedModel {
  let callId = 0;
  return new ScriptedModel(
    steps.map((step) =>
      modelResponder(({ request }: RecordedModelCall) => {
        const answer = step(inputOf(request));
        if ('text' in answer) return [assistantMessage(answer.text)];
        return answer.calls.map(([name, args]) =>
          functionCall(name, args, { callId: `call_${++callId}` }),
        );
      }),
    ),
  );
}

const inputOf = (request: ModelRequest): AgentInputItem[] =>
  typeof request.input === 'string' ? [] : [...request.input];

/** The text of the last tool result the model was given. */
function lastToolOutput(input: AgentInputItem[]): string | undefined {
  const result = input.filter((item) => item.type === 'function_call_result').at(-1);
  if (result?.type !== 'function_call_result') return undefined;
  const { output } = result;
  if (typeof output === 'string') return output;
  return !Array.isArray(output) && output.type === 'text' ? output.text : undefined;
}

/** The last tool result the model was given, as the JSON it reads. */
const lastToolJson = (input: AgentInputItem[]) =>
  JSON.parse(lastToolOutput(input) ?? 'null') as Record<string, unknown>;

/** What the model read of each tool result, in the order of the model's calls. */
const toolOutputsSeen = (model: ScriptedModel) =>
  model.calls.map((call) => lastToolOutput(inputOf(call.request)));

const agentWith = (model: ScriptedModel, tools: ReturnType<typeof agentchatTools>) =>
  new Agent({ name: 'Projects', instructions: 'Manage projects.', model, tools });

describe('the tools in run()', () => {
  it('create, read and chat, each typed result reaching the model', async () => {
    const model = scriptedModel([
      () => ({ calls: [['create_project', { name: 'Launch', agentId: 'agent_support' }]] }),
      (input) => ({ calls: [['get_project', { id: lastToolJson(input).id }]] }),
      (input) => ({
        calls: [['send_message', { projectId: lastToolJson(input).id, message: 'A plan?' }]],
      }),
      () => ({ text: 'Done.' }),
    ]);

    const result = await run(agentWith(model, agentchatTools(mock.client)), 'Create and chat.');

    expect(result.finalOutput).toBe('Done.');
    model.assertComplete();
    const [project] = mock.server.service.projects();
    expect(project).toMatchObject({ name: 'Launch', agentId: 'agent_support' });
    // Each result reached the model as the SDK's typed value, in JSON.
    const [created, read, reply] = toolOutputsSeen(model)
      .slice(1)
      .map((text) => JSON.parse(text ?? ''));
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
    // The run's own items hold the typed values, not text.
    const outputs = result.newItems.flatMap((item) =>
      item.type === 'tool_call_output_item' ? [item.output] : [],
    );
    expect(outputs).toEqual([
      expect.objectContaining({ id: project?.id, name: 'Launch' }),
      expect.objectContaining({ id: project?.id, agentId: 'agent_support' }),
      { message: expect.any(String), suggestions: expect.any(Array) },
    ]);
  });

  it("gives a missing project as the tool's output, the SDK error's message without the key", async () => {
    const model = scriptedModel([
      () => ({ calls: [['get_project', { id: 'proj_missing' }]] }),
      () => ({ text: 'It does not exist.' }),
    ]);

    const result = await run(agentWith(model, agentchatTools(mock.client)), 'Read proj_missing.');

    expect(result.finalOutput).toBe('It does not exist.');
    const seen = toolOutputsSeen(model)[1];
    // Not the Agents SDK's own "An error occurred while running the tool": what happened.
    expect(seen).toMatch(
      /^NotFoundError: .*No project with id "proj_missing".*\(request id req_\w+\)$/,
    );
    expect(JSON.stringify(model.calls.map((call) => call.request.input))).not.toContain(API_KEY);
  });

  it("refuses arguments with the client's own words, sending nothing", async () => {
    const model = scriptedModel([
      () => ({
        calls: [
          ['create_project', { name: 'X', agentID: 'agent_1' }],
          ['get_project', { id: 42 }],
        ],
      }),
      () => ({ text: 'Oops.' }),
    ]);

    await run(agentWith(model, agentchatTools(mock.client)), 'Go');

    const texts = inputOf(model.calls[1]?.request as ModelRequest).flatMap((item) =>
      item.type === 'function_call_result' ? [lastToolOutput([item])] : [],
    );
    expect(texts[0]).toMatch(
      /^RequestValidationError: Invalid create_project arguments: .*agentID: is not a known field; did you mean agentId\? Nothing was sent\.$/,
    );
    expect(texts[1]).toMatch(/^RequestValidationError: Invalid get_project arguments: id: /);
    expect(mock.server.service.requestLog()).toEqual([]);
  });

  it("tells only the class of an error that is not the SDK's", async () => {
    // The client's own failures are its errors; operations that throw anything else stand in
    // for a failure from elsewhere, whose message could hold anything.
    const failing = () => Promise.reject(new RangeError(`deep inside, ${API_KEY}`));
    const raw = {
      projects: { create: failing, get: failing },
      chat: { send: failing },
    } as unknown as Client;
    const model = scriptedModel([
      () => ({ calls: [['get_project', { id: 'proj_1' }]] }),
      () => ({ text: 'Failed.' }),
    ]);

    await run(agentWith(model, agentchatTools(raw)), 'Go');

    expect(toolOutputsSeen(model)[1]).toBe(
      'The call failed with an unexpected RangeError; its message is withheld, as it could hold a credential.',
    );
  });
});

describe('needsApproval', () => {
  const createCall = (): Step => ({
    calls: [['create_project', { name: 'Launch', agentId: 'agent_support' }]],
  });

  it('interrupts the run and sends nothing until state.approve() and run(agent, state)', async () => {
    const model = scriptedModel([createCall, () => ({ text: 'Created.' })]);
    const agent = agentWith(
      model,
      agentchatTools(mock.client, { needsApproval: ['create_project'] }),
    );

    const asked = await run(agent, 'Create a project.');

    expect(asked.interruptions.map((item) => item.name)).toEqual(['create_project']);
    expect(asked.interruptions[0]?.arguments).toBe(
      JSON.stringify({ name: 'Launch', agentId: 'agent_support' }),
    );
    expect(mock.server.service.requestLog()).toEqual([]);

    // Approved, the run resumes from its state and the call is made.
    for (const interruption of asked.interruptions) asked.state.approve(interruption);
    const resumed = await run(agent, asked.state);

    expect(resumed.finalOutput).toBe('Created.');
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(['Launch']);
  });

  it('rejected, sends nothing and tells the model', async () => {
    const model = scriptedModel([createCall, () => ({ text: 'Not created.' })]);
    const agent = agentWith(model, agentchatTools(mock.client, { needsApproval: true }));

    const asked = await run(agent, 'Create a project.');
    for (const interruption of asked.interruptions) asked.state.reject(interruption);
    const resumed = await run(agent, asked.state);

    expect(resumed.finalOutput).toBe('Not created.');
    expect(mock.server.service.requestLog()).toEqual([]);
  });

  it('asks for every tool with true, for those named with a list, and for none by default', async () => {
    const asks = (tools: ReturnType<typeof agentchatTools>) =>
      Promise.all(tools.map((tool) => tool.needsApproval(undefined as never, {}, 'call_1')));
    expect(await asks(agentchatTools(mock.client, { needsApproval: true }))).toEqual([
      true,
      true,
      true,
    ]);
    expect(await asks(agentchatTools(mock.client, { needsApproval: ['send_message'] }))).toEqual([
      false,
      false,
      true,
    ]);
    expect(await asks(agentchatTools(mock.client))).toEqual([false, false, false]);
  });
});

describe('tools and readOnly', () => {
  it('offer what they say, to the model too, as non-strict JSON Schema', async () => {
    expect(agentchatTools(mock.client, { readOnly: true }).map((tool) => tool.name)).toEqual([
      'get_project',
    ]);
    expect(
      agentchatTools(mock.client, { tools: ['send_message', 'create_project'] }).map(
        (tool) => tool.name,
      ),
    ).toEqual(['create_project', 'send_message']);

    const model = scriptedModel([() => ({ text: 'Nothing to do.' })]);
    await run(agentWith(model, agentchatTools(mock.client, { readOnly: true })), 'Hello');

    const offered = model.firstCall?.request.tools ?? [];
    expect(offered.map((tool) => tool.name)).toEqual(['get_project']);
    expect(offered[0]).toMatchObject({
      type: 'function',
      strict: false,
      parameters: {
        type: 'object',
        properties: { id: { type: 'string', minLength: 1 } },
        required: ['id'],
        additionalProperties: false,
      },
    });
    expect(offered[0]).not.toHaveProperty('parameters.$schema');
  });

  it('leave metadata open to any JSON object, which the model can fill', async () => {
    const model = scriptedModel([
      () => ({
        calls: [['create_project', { name: 'Tagged', agentId: 'agent_1', metadata: { tier: 2 } }]],
      }),
      () => ({ text: 'Created.' }),
    ]);

    await run(agentWith(model, agentchatTools(mock.client)), 'Go');

    const create = model.firstCall?.request.tools.find((tool) => tool.name === 'create_project');
    expect(create).toMatchObject({
      strict: false,
      parameters: { properties: { metadata: { type: 'object' } } },
    });
    expect(create).not.toHaveProperty('parameters.properties.metadata.additionalProperties');
    expect(mock.server.service.projects().map((project) => project.metadata)).toEqual([
      { tier: 2 },
    ]);
  });

  it("fit an Agent of the application's own context type", async () => {
    const model = scriptedModel([
      () => ({ calls: [['create_project', { name: 'Typed', agentId: 'agent_1' }]] }),
      () => ({ text: 'Created.' }),
    ]);
    // Typed: tools of another context type would not compile here.
    const agent = new Agent<{ userId: string }>({
      name: 'Projects',
      model,
      tools: agentchatTools(mock.client),
    });

    const result = await run(agent, 'Go', { context: { userId: 'user_1' } });

    expect(result.finalOutput).toBe('Created.');
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(['Typed']);
  });

  it('are refused when wrong, with a ConfigurationError that says what to write', () => {
    expect(() =>
      agentchatTools(mock.client, { readOnly: true, tools: ['create_project'] }),
    ).toThrow(ConfigurationError);
    expect(() => agentchatTools(mock.client, { tools: ['get_projects' as never] })).toThrow(
      /did you mean get_project\?/,
    );
    expect(() => agentchatTools(mock.client, { needsAproval: true } as never)).toThrow(
      /Unknown option needsAproval of agentchat\/openai-agents; did you mean needsApproval\?/,
    );
    expect(() => agentchatTools({} as Client)).toThrow(
      /agentchat\/openai-agents's agentchatTools needs a Client/,
    );
  });
});

describe('abort', () => {
  it("run()'s signal reaches the request in flight and ends the run with its reason", async () => {
    const { client: watched, signals } = mock.watchedClient();
    mock.server.service.enqueue({ kind: 'hang' });
    const model = scriptedModel([() => ({ calls: [['get_project', { id: 'proj_1' }]] })]);
    const controller = new AbortController();

    const running = run(agentWith(model, agentchatTools(watched)), 'Read proj_1.', {
      signal: controller.signal,
    });
    await expect.poll(() => mock.server.service.requestLog().length).toBe(1);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    controller.abort(new Error('the user moved on'));

    await expect(running).rejects.toThrow('the user moved on');
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
    // Fired by the run's abort, not by the client's own timeout.
    expect(signals.map((signal) => (signal.reason as Error).message)).toEqual([
      'the user moved on',
    ]);
    expect(mock.server.service.requestLog()).toHaveLength(1);
    // The model was not asked again after the abort.
    expect(model.calls).toHaveLength(1);
  });
});

describe('a connection failure whose cause quotes the request', () => {
  it("reaches the model as the tool's output without the key in any form", async () => {
    const model = scriptedModel([
      () => ({ calls: [['get_project', { id: 'proj_1' }]] }),
      () => ({ text: 'Unreachable.' }),
    ]);

    const result = await run(
      agentWith(model, agentchatTools(quotingClient(mock.server.baseUrl))),
      'Read proj_1.',
    );

    expect(toolOutputsSeen(model)[1]).toMatch(
      /^APIConnectionError: .*Authorization: Bearer \[redacted\]/,
    );
    const inputs = JSON.stringify(model.calls.map((call) => call.request.input));
    expect(textsWithSecret([inputs, JSON.stringify(result.history)], QUOTED_KEY)).toEqual([]);
  });
});
