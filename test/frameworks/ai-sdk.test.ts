/**
 * agentchat/ai-sdk in the AI SDK's own loop (`generateText`), its mock model scripted to call the
 * tools, against the mock service on 127.0.0.1.
 */
import { generateText, type ModelMessage, stepCountIs, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type AgentChatToolApprovalFunction,
  agentchatToolApproval,
  agentchatTools,
} from '../../src/ai-sdk/index.js';
import { type Client, ConfigurationError, NotFoundError } from '../../src/index.js';
import {
  QUOTED_KEY,
  quotingClient,
  shownSecrets,
  textsWithSecret,
} from '../helpers/quoting-fetch.js';
import { useMockServer } from '../helpers/use-mock-service.js';
import { modelErrorStart, readsToolApproval } from './ai-sdk-major.js';
import { lastToolOutput, scriptedModel } from './scripted-model.js';

const API_KEY = 'sk_ai_sdk_tools_7c1d9a2e';

const mock = useMockServer(API_KEY);

/**
 * The messages a loop stopped at `request` by the prompt 'Create a project.' goes on from once a
 * person approves the call: the prompt, what the loop answered, and the approval.
 */
function approvedMessages(
  stopped: { response: { messages: ModelMessage[] } },
  request: unknown,
): ModelMessage[] {
  return [
    { role: 'user', content: 'Create a project.' },
    ...stopped.response.messages,
    {
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId: (request as { approvalId: string }).approvalId,
          approved: true,
        },
      ],
    },
  ];
}

describe('the tools in generateText', () => {
  it('create, read and chat, each typed result reaching the model', async () => {
    const { model, prompts } = scriptedModel([
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

    const result = await generateText({
      model,
      tools: agentchatTools(mock.client),
      stopWhen: stepCountIs(5),
      prompt: 'Create a project and ask its agent for a plan.',
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
    // The loop's own record holds the typed results too.
    expect(result.steps.flatMap((step) => step.toolResults.map((r) => r.toolName))).toEqual([
      'create_project',
      'get_project',
      'send_message',
    ]);
  });

  it("gives a missing project as the AI SDK's tool error, its message without the key", async () => {
    const { model, prompts } = scriptedModel([
      () => ({ calls: [{ name: 'get_project', input: { id: 'proj_missing' } }] }),
      () => ({ text: 'It does not exist.' }),
    ]);

    const result = await generateText({
      model,
      tools: agentchatTools(mock.client),
      stopWhen: stepCountIs(3),
      prompt: 'Read proj_missing.',
    });

    const [error] = result.steps.flatMap((step) =>
      step.content.filter((part) => part.type === 'tool-error'),
    );
    expect(error?.type === 'tool-error' && error.error).toBeInstanceOf(NotFoundError);
    const seen = lastToolOutput(prompts[1] ?? []) as { type: string; value: string };
    expect(seen.type).toBe('error-text');
    expect(seen.value).toMatch(
      new RegExp(
        `^${modelErrorStart('NotFoundError')}GET /v1/projects/proj_missing failed with status 404: No project with id "proj_missing".*request id req_`,
      ),
    );
    expect(JSON.stringify(prompts)).not.toContain(API_KEY);
  });

  it("refuses arguments with the client's own words, sending nothing", async () => {
    const { model, prompts } = scriptedModel([
      () => ({ calls: [{ name: 'create_project', input: { name: 'X', agentID: 'agent_1' } }] }),
      () => ({ text: 'Oops.' }),
    ]);
    await generateText({
      model,
      tools: agentchatTools(mock.client),
      stopWhen: stepCountIs(3),
      prompt: 'Go',
    });
    expect(JSON.stringify(lastToolOutput(prompts[1] ?? []))).toMatch(/did you mean agentId/);
    expect(mock.server.service.requestLog()).toEqual([]);
  });
});

describe('needsApproval', () => {
  const createCall = () => ({
    calls: [{ name: 'create_project', input: { name: 'Launch', agentId: 'agent_support' } }],
  });

  it('stops the loop at a tool-approval-request and sends nothing until approved', async () => {
    const tools = agentchatTools(mock.client, { needsApproval: ['create_project'] });
    const first = scriptedModel([createCall]);
    const asked = await generateText({
      model: first.model,
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Create a project.',
    });

    const request = asked.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'create_project' } });
    expect(mock.server.service.requestLog()).toEqual([]);

    // Approved: the loop goes on from the messages, and the call is made.
    const second = scriptedModel([() => ({ text: 'Created.' })]);
    await generateText({
      model: second.model,
      tools,
      stopWhen: stepCountIs(3),
      messages: approvedMessages(asked, request),
    });
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(['Launch']);
  });

  it('asks for every tool with true, and for none by default', () => {
    const all = agentchatTools(mock.client, { needsApproval: true });
    expect(Object.values(all).map((tool) => tool?.needsApproval)).toEqual([true, true, true]);
    const none = agentchatTools(mock.client);
    expect(Object.values(none).map((tool) => tool?.needsApproval)).toEqual([false, false, false]);
  });

  it("gives AI SDK 7's toolApproval configuration, which stops the loop the same way", async () => {
    expect(agentchatToolApproval({ needsApproval: ['send_message'] })).toEqual({
      send_message: 'user-approval',
    });
    expect(agentchatToolApproval({ needsApproval: true, readOnly: true })).toEqual({
      get_project: 'user-approval',
    });
    const { model } = scriptedModel([createCall, () => ({ text: 'Created.' })]);
    const asked = await generateText({
      model,
      // Offered without needsApproval: only the configuration can stop the call.
      tools: agentchatTools(mock.client),
      toolApproval: agentchatToolApproval({ needsApproval: ['create_project'] }),
      stopWhen: stepCountIs(3),
      prompt: 'Create a project.',
    });
    const requests = asked.content.filter((part) => part.type === 'tool-approval-request');
    // AI SDK 7 stops at the request. AI SDK 6 has no toolApproval, so the call runs: there the
    // tools' own needsApproval (above) is what asks.
    expect(requests).toHaveLength(readsToolApproval ? 1 : 0);
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(
      readsToolApproval ? [] : ['Launch'],
    );
  });
});

/**
 * AI SDK 7 reads `toolApproval` first; AI SDK 6 has no such setting, so with the same call it
 * asks nothing of the function and each tool's own `needsApproval` alone decides: a tool the
 * options name still waits for a person there. Each test asserts what the installed major does.
 */
describe("toolApproval as a function of the application's own", () => {
  const options = { needsApproval: ['create_project'] } as const;
  /**
   * Runs generateText with the tools of `options` under `toolApproval`, its model calling
   * create_project and get_project in one step, then ending.
   */
  const runBothCalls = (toolApproval: AgentChatToolApprovalFunction) =>
    generateText({
      model: scriptedModel([
        () => ({
          calls: [
            { name: 'create_project', input: { name: 'Launch', agentId: 'agent_support' } },
            { name: 'get_project', input: { id: 'proj_missing' } },
          ],
        }),
        () => ({ text: 'Done.' }),
      ]).model,
      tools: agentchatTools(mock.client, options),
      toolApproval,
      stopWhen: stepCountIs(3),
      prompt: 'Create a project.',
    });
  /** The tools whose calls wait for a person: requests the loop did not decide itself. */
  const askedOf = (
    content: ReadonlyArray<{
      type: string;
      toolCall?: { toolName: string };
      isAutomatic?: boolean;
    }>,
  ) =>
    content.flatMap((part) =>
      part.type === 'tool-approval-request' && !part.isAutomatic && part.toolCall
        ? [part.toolCall.toolName]
        : [],
    );
  /** The paths the service was sent, below its base URL. */
  const sentPaths = () =>
    mock.server.service.requestLog().map((request) => request.path.replace(/^\/api/, ''));

  it("decides alone when not composed: the tools' needsApproval is not read", async () => {
    // What AI SDK 7 does, and what docs/agent-frameworks.md says: the function overrides. AI SDK
    // 6 never asks it, and create_project waits for a person.
    const result = await runBothCalls(() => 'not-applicable');

    expect(askedOf(result.content)).toEqual(readsToolApproval ? [] : ['create_project']);
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(
      readsToolApproval ? ['Launch'] : [],
    );
  });

  it('composed, asks a person before the tools needsApproval names, and lets the function decide the rest', async () => {
    const asked: string[] = [];
    const result = await runBothCalls(
      agentchatToolApproval(options, ({ toolCall }) => {
        asked.push(toolCall.toolName);
        return 'approved';
      }),
    );

    // The function was asked about both (AI SDK 6 asks it nothing); its "approved" held for
    // get_project only.
    expect(asked.sort()).toEqual(readsToolApproval ? ['create_project', 'get_project'] : []);
    expect(askedOf(result.content)).toEqual(['create_project']);
    expect(mock.server.service.projects()).toEqual([]);
    expect(sentPaths()).toEqual(['/v1/projects/proj_missing']);
  });

  it("composed, keeps the function's denial, and the reason it gives with its own request", async () => {
    const result = await runBothCalls(
      agentchatToolApproval(options, ({ toolCall }) =>
        toolCall.toolName === 'get_project'
          ? { type: 'denied', reason: 'no reads today' }
          : { type: 'user-approval', reason: 'a new project' },
      ),
    );

    expect(askedOf(result.content)).toEqual(['create_project']);
    // AI SDK 6 reads neither the denial nor the reason: get_project runs, and the request for
    // create_project (its own needsApproval) gives no reason.
    const request = result.content.find((part) => part.type === 'tool-approval-request');
    expect((request as { reason?: string } | undefined)?.reason).toBe(
      readsToolApproval ? 'a new project' : undefined,
    );
    expect(sentPaths()).toEqual(readsToolApproval ? [] : ['/v1/projects/proj_missing']);
  });

  it('composed in a ToolLoopAgent, runs the call once a person approves it', async () => {
    const tools = agentchatTools(mock.client, options);
    const asked: string[] = [];
    const toolApproval = agentchatToolApproval(options, ({ toolCall }) => {
      asked.push(toolCall.toolName);
      return 'not-applicable';
    });
    const first = scriptedModel([
      () => ({
        calls: [{ name: 'create_project', input: { name: 'Launch', agentId: 'agent_support' } }],
      }),
    ]);
    const stopped = await new ToolLoopAgent({
      model: first.model,
      tools,
      toolApproval,
      stopWhen: stepCountIs(3),
    }).generate({ prompt: 'Create a project.' });
    const request = stopped.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'create_project' } });
    expect(asked).toEqual(readsToolApproval ? ['create_project'] : []);
    expect(sentPaths()).toEqual([]);

    const second = scriptedModel([() => ({ text: 'Created.' })]);
    await new ToolLoopAgent({
      model: second.model,
      tools,
      toolApproval,
      stopWhen: stepCountIs(3),
    }).generate({
      messages: approvedMessages(stopped, request),
    });
    expect(mock.server.service.projects().map((project) => project.name)).toEqual(['Launch']);
  });

  it("composed with the object form, keeps each other tool's own needsApproval", async () => {
    const audit = tool({
      description: 'Writes an audit entry.',
      inputSchema: agentchatTools(mock.client).get_project?.inputSchema as never,
      needsApproval: true,
      execute: async () => 'written',
    });
    const { model } = scriptedModel([
      () => ({
        calls: [
          { name: 'create_project', input: { name: 'Launch', agentId: 'agent_support' } },
          { name: 'get_project', input: { id: 'proj_missing' } },
          { name: 'audit', input: { id: 'proj_1' } },
        ],
      }),
      () => ({ text: 'Done.' }),
    ]);
    const result = await generateText({
      model,
      tools: { ...agentchatTools(mock.client, options), audit },
      toolApproval: agentchatToolApproval(options, {
        create_project: 'approved',
        get_project: 'denied',
      }),
      stopWhen: stepCountIs(3),
      prompt: 'Create a project.',
    });

    // Its "approved" does not run create_project unasked; its "denied" holds (AI SDK 6 reads it
    // not, and get_project runs); audit, which it leaves out, asks as its own needsApproval says.
    expect(askedOf(result.content).sort()).toEqual(['audit', 'create_project']);
    expect(sentPaths()).toEqual(readsToolApproval ? [] : ['/v1/projects/proj_missing']);
  });

  it('is refused with an approval that is neither a function nor an object', () => {
    expect(() => agentchatToolApproval(options, 'approved' as never)).toThrow(ConfigurationError);
  });
});

describe('tools and readOnly', () => {
  it('offer what they say, to the model too', async () => {
    expect(Object.keys(agentchatTools(mock.client, { readOnly: true }))).toEqual(['get_project']);
    expect(Object.keys(agentchatTools(mock.client, { tools: ['send_message'] }))).toEqual([
      'send_message',
    ]);
    const { model } = scriptedModel([() => ({ text: 'Nothing to do.' })]);
    await generateText({
      model,
      tools: agentchatTools(mock.client, { readOnly: true }),
      prompt: 'Hello',
    });
    const offered = model.doGenerateCalls[0]?.tools?.map((tool) => tool.name);
    expect(offered).toEqual(['get_project']);
    const schema = model.doGenerateCalls[0]?.tools?.[0];
    expect(schema).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
  });

  it('leave metadata open to any JSON object, which the model can fill', async () => {
    const { model } = scriptedModel([
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
    await generateText({
      model,
      tools: agentchatTools(mock.client),
      stopWhen: stepCountIs(3),
      prompt: 'Go',
    });
    const create = model.doGenerateCalls[0]?.tools?.find((tool) => tool.name === 'create_project');
    const inputSchema = (create as { inputSchema?: unknown } | undefined)?.inputSchema as {
      additionalProperties: unknown;
      properties: { metadata: { additionalProperties: unknown } };
    };
    // The arguments stay closed; metadata, open (the AI SDK would close it: `false`).
    expect(inputSchema.additionalProperties).toBe(false);
    expect(inputSchema.properties.metadata.additionalProperties).toEqual({});
    expect(mock.server.service.projects().map((project) => project.metadata)).toEqual([
      { tier: 2 },
    ]);
  });

  it('are refused when wrong, with a ConfigurationError that says what to write', () => {
    expect(() =>
      agentchatTools(mock.client, { readOnly: true, tools: ['create_project'] }),
    ).toThrow(ConfigurationError);
    expect(() => agentchatTools(mock.client, { tools: ['get_projects' as never] })).toThrow(
      /did you mean get_project\?/,
    );
    expect(() => agentchatTools(mock.client, { needsAproval: true } as never)).toThrow(
      /Unknown option needsAproval of agentchat\/ai-sdk; did you mean needsApproval\?/,
    );
    expect(() => agentchatTools({} as Client)).toThrow(ConfigurationError);
    expect(() => agentchatToolApproval({ needsApproval: ['nope' as never] })).toThrow(
      ConfigurationError,
    );
  });
});

describe('abort', () => {
  it("the AI SDK's abortSignal reaches the request in flight", async () => {
    const { client: watched, signals } = mock.watchedClient();
    mock.server.service.enqueue({ kind: 'hang' });
    const { model } = scriptedModel([
      () => ({ calls: [{ name: 'get_project', input: { id: 'proj_1' } }] }),
    ]);
    const controller = new AbortController();

    const run = generateText({
      model,
      tools: agentchatTools(watched),
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
      prompt: 'Read proj_1.',
    });
    await expect.poll(() => mock.server.service.requestLog().length).toBe(1);
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    controller.abort('the user moved on');

    await expect(run).rejects.toThrow();
    await expect.poll(() => signals.map((signal) => signal.aborted)).toEqual([true]);
    expect(mock.server.service.requestLog()).toHaveLength(1);
  });
});

describe('a connection failure whose cause quotes the request', () => {
  it('reaches the model as the tool error without the key in any form', async () => {
    const { model, prompts } = scriptedModel([
      () => ({ calls: [{ name: 'get_project', input: { id: 'proj_1' } }] }),
      () => ({ text: 'Unreachable.' }),
    ]);

    const result = await generateText({
      model,
      tools: agentchatTools(quotingClient(mock.server.baseUrl)),
      stopWhen: stepCountIs(3),
      prompt: 'Read proj_1.',
    });

    const seen = lastToolOutput(prompts[1] ?? []) as { type: string; value: string };
    expect(seen.value).toMatch(
      new RegExp(
        `^${modelErrorStart('APIConnectionError')}GET /v1/projects/proj_1 could not reach the service .*Authorization: Bearer \\[redacted\\]`,
      ),
    );
    expect(textsWithSecret([JSON.stringify(prompts)], QUOTED_KEY)).toEqual([]);
    // The error the loop keeps for the application shows none either.
    const [failed] = result.steps.flatMap((step) =>
      step.content.filter((part) => part.type === 'tool-error'),
    );
    expect(failed?.type === 'tool-error' && shownSecrets(failed.error, QUOTED_KEY)).toEqual([]);
  });
});
