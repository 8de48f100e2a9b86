/**
 * agentchat/openai-agents through the OpenAI Agents SDK's default OpenAI model (its
 * `OpenAIProvider` over the `openai` client, on the Responses API and on Chat Completions), whose
 * requests reach a local stand-in of OpenAI's HTTP API, and whose tool calls reach the mock
 * service on 127.0.0.1.
 */
import { Agent, Runner } from '@openai/agents';
import { OpenAIProvider } from '@openai/agents-openai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { agentchatTools } from '../../src/openai-agents/index.js';
import { useProviderStandIn } from '../helpers/provider-stand-in.js';
import { useMockServer } from '../helpers/use-mock-service.js';
import {
  expectTableTools,
  lastResultText,
  METADATA,
  scriptLoop,
  scriptMissingProject,
} from './provider-wire-checks.js';

const mock = useMockServer('sk_provider_wire_agents_8c2d');
const provider = useProviderStandIn();

/** A runner whose default model is OpenAI's, its client pointed at the stand-in. */
const runnerOn = (useResponses: boolean) =>
  new Runner({
    modelProvider: new OpenAIProvider({
      openAIClient: new OpenAI({ apiKey: 'sk-test', baseURL: provider.baseUrl, maxRetries: 0 }),
      useResponses,
    }),
    tracingDisabled: true,
  });

const agentWith = (tools: ReturnType<typeof agentchatTools>) =>
  new Agent({ name: 'Projects', instructions: 'Manage projects.', model: 'gpt-5', tools });

describe.each([
  ['the Responses API', true],
  ['Chat Completions', false],
])('through %s', (_, useResponses) => {
  it('the provider receives every tool of the table, and readOnly offers only reads', async () => {
    provider.script({ text: 'Hello.' }, { text: 'Hello.' });
    const runner = runnerOn(useResponses);
    await runner.run(agentWith(agentchatTools(mock.client)), 'hi');
    await runner.run(agentWith(agentchatTools(mock.client, { readOnly: true })), 'hi');

    expect(provider.requests.map(({ api }) => api)).toEqual(
      Array(2).fill(useResponses ? 'responses' : 'chat-completions'),
    );
    expectTableTools(provider.tools(provider.requests[0]), [
      'create_project',
      'get_project',
      'send_message',
    ]);
    expectTableTools(provider.tools(provider.requests[1]), ['get_project']);
  });

  it.each([false, true])(
    'runs the whole loop (stream: %s), metadata as the model wrote it',
    async (stream) => {
      scriptLoop(provider);
      const agent = agentWith(agentchatTools(mock.client));
      const runner = runnerOn(useResponses);
      let finalOutput: unknown;
      if (stream) {
        const result = await runner.run(agent, 'Create a project and read it back.', {
          stream: true,
        });
        await result.completed;
        finalOutput = result.finalOutput;
      } else {
        finalOutput = (await runner.run(agent, 'Create a project and read it back.')).finalOutput;
      }

      expect(finalOutput).toBe('Done.');
      expect(provider.requests.map((request) => request.stream)).toEqual(Array(3).fill(stream));
      const [project] = mock.server.service.projects();
      expect(project).toMatchObject({
        name: 'Launch',
        agentId: 'agent_support',
        metadata: METADATA,
      });
      expect(JSON.parse(lastResultText(provider, provider.requests[2]))).toMatchObject({
        id: project?.id,
        metadata: METADATA,
      });
    },
  );

  it("gives the model the SDK error's text with its class", async () => {
    scriptMissingProject(provider);
    const { finalOutput } = await runnerOn(useResponses).run(
      agentWith(agentchatTools(mock.client)),
      'Read proj_missing.',
    );

    expect(finalOutput).toBe('It does not exist.');
    expect(lastResultText(provider, provider.requests[1])).toMatch(
      /NotFoundError: .*No project with id \\?"proj_missing/,
    );
  });
});
