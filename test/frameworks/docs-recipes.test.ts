/**
 * The recipes of docs/agent-frameworks.md, each run as the program a user would write, against the
 * mock service: the guide names a real model provider (`openai('gpt-5')` of `@ai-sdk/openai`, the
 * Agents SDK's default provider's `'gpt-5'`, `new ChatOpenAI({ model: 'gpt-5' })` of
 * `@langchain/openai`, Mastra's `'openai/gpt-5'`); here each gives the framework's own test model
 * instead (the AI SDK's for Mastra, whose agents take AI SDK models), which calls the tools as a
 * model would (create the project, then message its agent, then answer).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { repo } from '../helpers/doc-snippets.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

/**
 * The marker before a fenced block of the guide that is a program of its own (and maybe the one
 * that leaves it out of the guides' type check).
 */
const RECIPE = /^<!-- recipe: (\S+) -->\n(?:<!-- not-checked -->\n)?```ts\n([\s\S]*?)\n```$/gm;

/** `@ai-sdk/openai` for the recipes: `openai(id)` is the AI SDK's mock model, scripted. */
const MOCK_PROVIDER = `
import { MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

export function openai(modelId: string) {
  return new MockLanguageModelV3({
    modelId,
    doGenerate: async ({ prompt }) => {
      const results = prompt
        .filter((message) => message.role === 'tool')
        .flatMap((message) => message.content)
        .filter((part) => part.type === 'tool-result');
      const last = results.at(-1) as { toolName: string; output: { value: { id: string } } } | undefined;
      const call = (toolName: string, input: unknown) => ({
        content: [{ type: 'tool-call' as const, toolCallId: 'call_' + results.length, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      });
      if (last === undefined) return call('create_project', { name: 'Launch', agentId: 'agent_support' });
      if (last.toolName === 'create_project') {
        return call('send_message', { projectId: last.output.value.id, message: 'A plan, please.' });
      }
      return {
        content: [{ type: 'text' as const, text: 'The agent proposed a plan.' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}
`;

/**
 * `@openai/agents` for the recipes: the package itself, its default model provider giving the
 * Agents SDK's scripted model for any model name, which answers from the run's tool results.
 */
const MOCK_AGENTS_PROVIDER = `
import { setDefaultModelProvider } from '@openai/agents';
import { assistantMessage, functionCall, modelResponder, ScriptedModel } from '@openai/agents/testing';

export * from '@openai/agents';

const respond = modelResponder(({ request }) => {
  const results = (typeof request.input === 'string' ? [] : request.input).filter(
    (item) => item.type === 'function_call_result',
  );
  const last = results.at(-1) as { name: string; output: { text: string } } | undefined;
  const call = (name: string, args: Record<string, unknown>) => [
    functionCall(name, args, { callId: 'call_' + results.length }),
  ];
  if (last === undefined) return call('create_project', { name: 'Launch', agentId: 'agent_support' });
  if (last.name === 'create_project') {
    const { id } = JSON.parse(last.output.text) as { id: string };
    return call('send_message', { projectId: id, message: 'A plan, please.' });
  }
  return [assistantMessage('The agent proposed a plan.')];
});

setDefaultModelProvider({ getModel: () => new ScriptedModel([respond, respond, respond]) });
`;

/**
 * `@langchain/openai` for the recipes: `new ChatOpenAI(fields)` is a scripted chat model
 * (./scripted-chat-model.ts), answering each call from the tool messages so far.
 */
const MOCK_LANGCHAIN_OPENAI = `
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { scriptedChatModel } from ${JSON.stringify(join(repo, 'test/frameworks/scripted-chat-model.ts'))};

function next(messages: BaseMessage[]): AIMessage {
  const last = messages.filter((message) => ToolMessage.isInstance(message)).at(-1);
  const call = (name: string, args: Record<string, unknown>) =>
    new AIMessage({ content: '', tool_calls: [{ name, args, id: 'call_' + name }] });
  if (last === undefined) return call('create_project', { name: 'Launch', agentId: 'agent_support' });
  if (last.name === 'create_project') {
    return call('send_message', { projectId: JSON.parse(last.text).id, message: 'A plan, please.' });
  }
  return new AIMessage('The agent proposed a plan.');
}

export class ChatOpenAI {
  constructor(_fields: { model: string }) {
    const model = scriptedChatModel();
    for (let i = 0; i < 5; i++) model.respond(next);
    return model;
  }
}
`;

const API_KEY = 'sk_agent_framework_recipes_5e8a';

let recipes: Map<string, string>;
let scratch: string;
let mock: MockServer;

beforeAll(async () => {
  const guide = await readFile(join(repo, 'docs/agent-frameworks.md'), 'utf8');
  recipes = new Map([...guide.matchAll(RECIPE)].map((match) => [match[1] ?? '', match[2] ?? '']));
  // Inside the repository, so that tsconfig's paths map `agentchat` to src/.
  await mkdir(join(repo, '.tmp'), { recursive: true });
  scratch = await mkdtemp(join(repo, '.tmp', 'agent-framework-recipes-'));
  await writeFile(join(scratch, 'mock-openai.ts'), MOCK_PROVIDER);
  await writeFile(join(scratch, 'mock-openai-agents.ts'), MOCK_AGENTS_PROVIDER);
  await writeFile(join(scratch, 'mock-langchain-openai.ts'), MOCK_LANGCHAIN_OPENAI);
  mock = await startMockServer({ apiKeys: [API_KEY] });
});
afterAll(async () => {
  await mock?.close();
  await rm(scratch, { recursive: true, force: true });
});
beforeEach(() => mock.service.reset());

/**
 * `code` with its model the framework's test model: each provider's import replaced by its mock
 * above, and Mastra's model string `'openai/gpt-5'` (which Mastra's model router would send to
 * OpenAI) by the AI SDK mock's model.
 */
function withMockModel(code: string): string {
  const replaced = code
    .replaceAll("from '@ai-sdk/openai'", "from './mock-openai.ts'")
    .replaceAll("from '@openai/agents'", "from './mock-openai-agents.ts'")
    .replaceAll("from '@langchain/openai'", "from './mock-langchain-openai.ts'");
  if (!replaced.includes("model: 'openai/gpt-5'")) return replaced;
  return `import { openai } from './mock-openai.ts';\n${replaced.replaceAll("model: 'openai/gpt-5'", "model: openai('gpt-5')")}`;
}

/** Runs a recipe as its own program, configured by the environment as the guide says. */
/** How long a recipe's process may take: see the recipes' tests below. */
const RECIPE_TIMEOUT = 90_000;

async function runRecipe(name: string): Promise<string> {
  const code = recipes.get(name);
  if (code === undefined) throw new Error(`docs/agent-frameworks.md has no recipe ${name}`);
  const file = join(scratch, name);
  await writeFile(file, withMockModel(code));
  const result = await runProcess(process.execPath, [...tsxLoader, file], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      AGENTCHAT_API_KEY: API_KEY,
      AGENTCHAT_BASE_URL: mock.baseUrl,
      // No trace export, which would try to reach OpenAI.
      OPENAI_AGENTS_DISABLE_TRACING: '1',
      // Mastra reports feature usage to its own servers from some code paths.
      MASTRA_TELEMETRY_DISABLED: '1',
    },
  });
  if (result.code !== 0) throw new Error(`${name} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

describe('docs/agent-frameworks.md', () => {
  it('has the recipes this file runs', () => {
    expect([...recipes.keys()]).toEqual([
      'ai-sdk.ts',
      'ai-sdk-approval.ts',
      'openai-agents.ts',
      'openai-agents-approval.ts',
      'langchain.ts',
      'langchain-approval.ts',
      'mastra.ts',
      'mastra-approval.ts',
    ]);
  });

  it("has, in each framework's install line, every package its samples import", async () => {
    // Under pnpm a project imports only the packages it installs itself, not their dependencies.
    const guide = await readFile(join(repo, 'docs/agent-frameworks.md'), 'utf8');
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const missing: string[] = [];
    const checked: string[] = [];
    for (const section of guide.split('\n## ').slice(1)) {
      const install = section.match(/```sh\nnpm install ([^\n]*)/)?.[1]?.split(' ');
      if (install === undefined) continue;
      const title = section.slice(0, section.indexOf('\n'));
      checked.push(title);
      for (const [, specifier = ''] of section.matchAll(/from '([^'.][^']*)'/g)) {
        const name = packageOf(specifier);
        if (!name.startsWith('node:') && !install.includes(name)) missing.push(`${title}: ${name}`);
      }
    }
    expect(checked).toHaveLength(4);
    expect([...new Set(missing)]).toEqual([]);
  });

  it.each(['ai-sdk.ts', 'openai-agents.ts', 'langchain.ts', 'mastra.ts'])(
    '%s: the model creates a project and messages its agent through the tools',
    async (name) => {
      const output = await runRecipe(name);

      expect(output).toBe('create_project send_message\nThe agent proposed a plan.');
      expect(mock.service.projects()).toEqual([
        expect.objectContaining({ name: 'Launch', agentId: 'agent_support' }),
      ]);
      const paths = mock.service.requestLog().map((request) => request.path);
      expect(paths).toEqual([
        expect.stringMatching(/\/v1\/projects$/),
        expect.stringMatching(/\/v1\/projects\/proj_\w+\/chat$/),
      ]);
    },
    // Each recipe is a process of its own that loads its framework first (Mastra's alone is
    // seconds of CPU), beside the rest of the suite: 4 s on an idle machine, past 30 s at a load of 30.
    RECIPE_TIMEOUT,
  );

  it.each(['ai-sdk-approval.ts', 'openai-agents-approval.ts', 'mastra-approval.ts'])(
    '%s: nothing is created until the approval, then the run goes on',
    async (name) => {
      const output = await runRecipe(name);

      expect(output).toBe('approve create_project?\nThe agent proposed a plan.');
      expect(mock.service.projects().map((project) => project.name)).toEqual(['Launch']);
    },
    RECIPE_TIMEOUT,
  );

  it(
    'langchain-approval.ts: each call waits for its approval at the agent, then the run goes on',
    async () => {
      const output = await runRecipe('langchain-approval.ts');

      expect(output).toBe(
        'approve create_project?\napprove send_message?\nThe agent proposed a plan.',
      );
      expect(mock.service.projects().map((project) => project.name)).toEqual(['Launch']);
    },
    RECIPE_TIMEOUT,
  );
});
