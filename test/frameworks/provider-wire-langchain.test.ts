/**
 * agentchat/langchain through LangChain's provider packages (`ChatOpenAI` of `@langchain/openai`
 * on Chat Completions and on the Responses API, `ChatAnthropic` of `@langchain/anthropic`) in
 * `createAgent`, as the docs write it, whose requests reach a local stand-in of the provider's
 * HTTP API, and whose tool calls reach the mock service on 127.0.0.1.
 */
import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { agentchatTools } from '../../src/langchain/index.js';
import { useProviderStandIn } from '../helpers/provider-stand-in.js';
import { useMockServer } from '../helpers/use-mock-service.js';
import {
  expectTableTools,
  lastResultText,
  METADATA,
  scriptLoop,
  scriptMissingProject,
} from './provider-wire-checks.js';

const mock = useMockServer('sk_provider_wire_langchain_3a7b');
const provider = useProviderStandIn();

const openai = (options: { useResponsesApi?: boolean; supportsStrictToolCalling?: boolean }) =>
  new ChatOpenAI({
    model: 'gpt-5',
    apiKey: 'sk-test',
    configuration: { baseURL: provider.baseUrl },
    maxRetries: 0,
    ...options,
  });

const anthropic = () =>
  new ChatAnthropic({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    // The Anthropic client adds /v1 itself.
    anthropicApiUrl: provider.baseUrl.replace(/\/v1$/, ''),
    maxRetries: 0,
  });

/**
 * Each path: its model, and whether the agent streams (`agent.stream` in `messages` mode, which
 * streams the model's answer as LangChain's streaming examples do).
 */
const paths: Record<string, { model: () => BaseChatModel; stream: boolean }> = {
  'ChatOpenAI on Chat Completions': { model: () => openai({}), stream: false },
  'ChatOpenAI on Chat Completions, streamed': { model: () => openai({}), stream: true },
  // As docs/agent-frameworks.md gives it: LangChain marks tools strict on the Responses API
  // unless told otherwise.
  'ChatOpenAI on the Responses API': {
    model: () => openai({ useResponsesApi: true, supportsStrictToolCalling: false }),
    stream: false,
  },
  'ChatOpenAI on the Responses API, streamed': {
    model: () => openai({ useResponsesApi: true, supportsStrictToolCalling: false }),
    stream: true,
  },
  ChatAnthropic: { model: anthropic, stream: false },
  'ChatAnthropic, streamed': { model: anthropic, stream: true },
};

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

/** Runs `agent` on `content` to its end, streamed or not, and gives the last message's text. */
async function runAgent(
  agent: ReturnType<typeof createAgent>,
  content: string,
  stream: boolean,
): Promise<string | undefined> {
  if (!stream) return (await agent.invoke(ask(content))).messages.at(-1)?.text;
  let last: BaseMessage[] = [];
  for await (const [mode, chunk] of await agent.stream(ask(content), {
    streamMode: ['messages', 'values'],
  })) {
    if (mode === 'values') last = (chunk as { messages: BaseMessage[] }).messages;
  }
  return last.at(-1)?.text;
}

describe.each(Object.entries(paths))('through %s', (_, { model, stream }) => {
  it('the provider receives every tool of the table through bindTools', async () => {
    provider.script({ text: 'Hello.' });
    // biome-ignore lint/style/noNonNullAssertion: every chat model of these packages binds tools
    await model().bindTools!(agentchatTools(mock.client)).invoke('hi');

    expectTableTools(provider.tools(provider.requests[0]), [
      'create_project',
      'get_project',
      'send_message',
    ]);
  });

  it('readOnly offers get_project alone, its id with description and minLength', async () => {
    provider.script({ text: 'Hello.' });
    // biome-ignore lint/style/noNonNullAssertion: as above
    await model().bindTools!(agentchatTools(mock.client, { readOnly: true })).invoke('hi');

    expectTableTools(provider.tools(provider.requests[0]), ['get_project']);
  });

  it('runs the whole loop in createAgent, metadata as the model wrote it', async () => {
    scriptLoop(provider);
    const agent = createAgent({ model: model(), tools: agentchatTools(mock.client) });

    expect(await runAgent(agent, 'Create a project and read it back.', stream)).toBe('Done.');
    expect(provider.requests.map((request) => request.stream)).toEqual(Array(3).fill(stream));
    const [project] = mock.server.service.projects();
    expect(project).toMatchObject({ name: 'Launch', agentId: 'agent_support', metadata: METADATA });
    expect(JSON.parse(lastResultText(provider, provider.requests[2]))).toMatchObject({
      id: project?.id,
      metadata: METADATA,
    });
  });

  it("gives the model the SDK error's text with its class", async () => {
    scriptMissingProject(provider);
    const agent = createAgent({ model: model(), tools: agentchatTools(mock.client) });

    expect(await runAgent(agent, 'Read proj_missing.', stream)).toBe('It does not exist.');
    expect(lastResultText(provider, provider.requests[1])).toMatch(
      /NotFoundError: .*No project with id \\?"proj_missing/,
    );
  });
});

describe('ChatOpenAI on the Responses API, as it comes', () => {
  it('marks the tools strict (strict: null), which OpenAI refuses for the free-form metadata', async () => {
    provider.script({ text: 'Hello.' });
    const model = openai({ useResponsesApi: true });

    await expect(model.bindTools(agentchatTools(mock.client)).invoke('hi')).rejects.toThrow(
      /400 Invalid schema for function 'create_project'/,
    );
    expect(provider.tools(provider.requests[0]).map(({ strict }) => strict)).toEqual([
      null,
      null,
      null,
    ]);
  });
});
