/**
 * agentchat/mastra through Mastra's model router (`model: 'openai/gpt-5'`,
 * `'anthropic/claude-sonnet-4-5'`, and a model config with a `url`), whose requests reach a local
 * stand-in of the provider's HTTP API, and whose tool calls reach the mock service on 127.0.0.1.
 * The router takes a provider's base URL from `<PROVIDER>_BASE_URL` and its key from
 * `<PROVIDER>_API_KEY`, as users configure it; a config's `url` speaks Chat Completions.
 */
import { Agent } from '@mastra/core/agent';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentChatToolSet, agentchatTools } from '../../src/mastra/index.js';
import { useProviderStandIn } from '../helpers/provider-stand-in.js';
import { useMockServer } from '../helpers/use-mock-service.js';
import {
  expectTableTools,
  lastResultText,
  METADATA,
  scriptLoop,
  scriptMissingProject,
} from './provider-wire-checks.js';

// Mastra reports feature usage to its own servers from some code paths; tests send nothing
// beyond loopback.
process.env.MASTRA_TELEMETRY_DISABLED = '1';

const mock = useMockServer('sk_provider_wire_mastra_3a9c');
const provider = useProviderStandIn();
const ENV = ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY'];
const savedEnv = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
beforeAll(() => {
  process.env.OPENAI_BASE_URL = provider.baseUrl;
  process.env.OPENAI_API_KEY = 'sk-test';
  process.env.ANTHROPIC_BASE_URL = provider.baseUrl;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test';
});
afterAll(() => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

type AgentModel = ConstructorParameters<typeof Agent>[0]['model'];

/** Each way a user names a model to Mastra's router, and the provider API it then speaks. */
const paths: ReadonlyArray<readonly [string, () => AgentModel, string]> = [
  ["'openai/gpt-5'", () => 'openai/gpt-5', 'responses'],
  ["'anthropic/claude-sonnet-4-5'", () => 'anthropic/claude-sonnet-4-5', 'messages'],
  [
    "{ id: 'openai/gpt-5', url }",
    () => ({ id: 'openai/gpt-5', url: provider.baseUrl, apiKey: 'sk-test' }),
    'chat-completions',
  ],
];

const agentWith = (model: AgentModel, tools: AgentChatToolSet) =>
  new Agent({ id: 'projects', name: 'Projects', instructions: 'Manage projects.', model, tools });

describe.each(paths)('through %s', (_, model, api) => {
  it('the provider receives every tool of the table, not strict, and readOnly offers only reads', async () => {
    provider.script({ text: 'Hello.' }, { text: 'Hello.' });
    await agentWith(model(), agentchatTools(mock.client)).generate('hi');
    await agentWith(model(), agentchatTools(mock.client, { readOnly: true })).generate('hi');

    expect(provider.requests.map((request) => request.api)).toEqual([api, api]);
    const all = provider.tools(provider.requests[0]);
    expectTableTools(all, ['create_project', 'get_project', 'send_message']);
    expectTableTools(provider.tools(provider.requests[1]), ['get_project']);
    // Said outright, so that no provider holds the model to a strict mode `metadata` cannot
    // meet, whatever its default.
    expect(all.map(({ strict }) => strict)).toEqual(Array(3).fill(false));
  });

  it.each(['generate', 'stream'] as const)(
    'runs the whole loop in agent.%s, metadata as the model wrote it',
    async (method) => {
      scriptLoop(provider);
      const agent = agentWith(model(), agentchatTools(mock.client));
      const prompt = 'Create a project and read it back.';

      const text =
        method === 'generate'
          ? (await agent.generate(prompt, { maxSteps: 5 })).text
          : await (await agent.stream(prompt, { maxSteps: 5 })).text;

      expect(text).toBe('Done.');
      // What the model wrote is what the schema the provider received lets it write: no schema
      // closed to `{}` that a strict provider would hold it to.
      const create = provider
        .tools(provider.requests[0])
        .find(({ name }) => name === 'create_project');
      expect(
        new Ajv({ strict: false }).validate(create?.parameters ?? false, {
          name: 'Launch',
          agentId: 'agent_support',
          metadata: METADATA,
        }),
      ).toBe(true);
      const [project] = mock.server.service.projects();
      expect(project).toMatchObject({
        name: 'Launch',
        agentId: 'agent_support',
        metadata: METADATA,
      });
      // agent.generate asks for whole answers, agent.stream for server-sent events.
      expect(provider.requests.map((request) => request.stream)).toEqual(
        Array(3).fill(method === 'stream'),
      );
      expect(JSON.parse(lastResultText(provider, provider.requests[1]))).toMatchObject({
        id: project?.id,
        name: 'Launch',
      });
      expect(JSON.parse(lastResultText(provider, provider.requests[2]))).toMatchObject({
        id: project?.id,
        metadata: METADATA,
      });
    },
  );

  it("gives the model the SDK error's text with its class", async () => {
    scriptMissingProject(provider);
    const { text } = await agentWith(model(), agentchatTools(mock.client)).generate(
      'Read proj_missing.',
      { maxSteps: 3 },
    );

    expect(text).toBe('It does not exist.');
    expect(lastResultText(provider, provider.requests[1])).toMatch(
      /^NotFoundError: GET \/v1\/projects\/proj_missing failed with status 404: No project with id \\?"proj_missing\\?" \(request id req_\w+\)$/,
    );
    expect(JSON.stringify(provider.requests.map(({ body }) => body))).not.toContain(
      'sk_provider_wire_mastra_3a9c',
    );
  });
});
