/**
 * agentchat/ai-sdk through the AI SDK's provider packages (`@ai-sdk/openai` on the Responses and
 * Chat Completions APIs, `@ai-sdk/anthropic`), whose requests reach a local stand-in of the
 * provider's HTTP API, and whose tool calls reach the mock service on 127.0.0.1.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type LanguageModel, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { agentchatTools } from '../../src/ai-sdk/index.js';
import { useProviderStandIn } from '../helpers/provider-stand-in.js';
import { useMockServer } from '../helpers/use-mock-service.js';
import { modelErrorStart } from './ai-sdk-major.js';
import {
  expectTableTools,
  lastResultText,
  METADATA,
  scriptLoop,
  scriptMissingProject,
} from './provider-wire-checks.js';

const mock = useMockServer('sk_provider_wire_ai_sdk_5e1f');
const provider = useProviderStandIn();

const paths: Record<string, () => LanguageModel> = {
  'OpenAI Responses': () => createOpenAI({ apiKey: 'sk-test', baseURL: provider.baseUrl })('gpt-5'),
  'OpenAI Chat Completions': () =>
    createOpenAI({ apiKey: 'sk-test', baseURL: provider.baseUrl }).chat('gpt-5'),
  'Anthropic Messages': () =>
    createAnthropic({ apiKey: 'sk-ant-test', baseURL: provider.baseUrl })('claude-sonnet-4-5'),
};

describe.each(Object.entries(paths))('through %s', (_, model) => {
  it('the provider receives every tool of the table, and readOnly offers only reads', async () => {
    provider.script({ text: 'Hello.' }, { text: 'Hello.' });
    await generateText({ model: model(), tools: agentchatTools(mock.client), prompt: 'hi' });
    await generateText({
      model: model(),
      tools: agentchatTools(mock.client, { readOnly: true }),
      prompt: 'hi',
    });

    expectTableTools(provider.tools(provider.requests[0]), [
      'create_project',
      'get_project',
      'send_message',
    ]);
    expectTableTools(provider.tools(provider.requests[1]), ['get_project']);
  });

  it.each([
    ['generateText', generateText],
    ['streamText', streamText],
  ] as const)('runs the whole loop in %s, metadata as the model wrote it', async (_, run) => {
    scriptLoop(provider);
    const result = run({
      model: model(),
      tools: agentchatTools(mock.client),
      stopWhen: stepCountIs(5),
      prompt: 'Create a project and read it back.',
    });

    expect(await (await result).text).toBe('Done.');
    const [project] = mock.server.service.projects();
    expect(project).toMatchObject({ name: 'Launch', agentId: 'agent_support', metadata: METADATA });
    expect(provider.requests.map(({ stream }) => stream)).toEqual(
      Array(3).fill(run === streamText),
    );
    expect(JSON.parse(lastResultText(provider, provider.requests[2]))).toMatchObject({
      id: project?.id,
      metadata: METADATA,
    });
  });

  it("gives the model the SDK error's text, with its class on AI SDK 7", async () => {
    scriptMissingProject(provider);
    const { text } = await generateText({
      model: model(),
      tools: agentchatTools(mock.client),
      stopWhen: stepCountIs(3),
      prompt: 'Read proj_missing.',
    });

    expect(text).toBe('It does not exist.');
    expect(lastResultText(provider, provider.requests[1])).toMatch(
      // At the start of the text, or of the JSON string the OpenAI APIs carry it in.
      new RegExp(
        `(?:^|")${modelErrorStart('NotFoundError')}GET /v1/projects/proj_missing failed .*No project with id \\\\?"proj_missing`,
      ),
    );
  });
});
