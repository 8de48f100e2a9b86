/**
 * The recipes of docs/agent-frameworks.md, each run as the program a user would write, against the
 * mock service: the guide names a real model provider (`openai('gpt-5')` of `@ai-sdk/openai`, or
 * Mastra's `'openai/gpt-5'`); here that gives the AI SDK's mock model instead, which calls the
 * tools as a model would (create the project, then message its agent, then answer).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { repo } from '../helpers/doc-snippets.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

/** The marker before a fenced block of the guide that is a program of its own. */
const RECIPE = /^<!-- recipe: (\S+) -->\n```ts\n([\s\S]*?)\n```$/gm;

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
  mock = await startMockServer({ apiKeys: [API_KEY] });
});
afterAll(async () => {
  await mock?.close();
  await rm(scratch, { recursive: true, force: true });
});
beforeEach(() => mock.service.reset());

/**
 * `code` with its model the mock: `@ai-sdk/openai` replaced by mock-openai.ts, and Mastra's model
 * string `'openai/gpt-5'` (which Mastra's model router would send to OpenAI) by that mock's model.
 */
function withMockModel(code: string): string {
  const replaced = code.replaceAll("from '@ai-sdk/openai'", "from './mock-openai.ts'");
  if (!replaced.includes("model: 'openai/gpt-5'")) return replaced;
  return `import { openai } from './mock-openai.ts';\n${replaced.replaceAll("model: 'openai/gpt-5'", "model: openai('gpt-5')")}`;
}

/** Runs a recipe as its own program, configured by the environment as the guide says. */
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
      'mastra.ts',
      'mastra-approval.ts',
    ]);
  });

  it('ai-sdk.ts: the model creates a project and messages its agent through the tools', async () => {
    const output = await runRecipe('ai-sdk.ts');

    expect(output).toBe('create_project send_message\nThe agent proposed a plan.');
    expect(mock.service.projects()).toEqual([
      expect.objectContaining({ name: 'Launch', agentId: 'agent_support' }),
    ]);
    const paths = mock.service.requestLog().map((request) => request.path);
    expect(paths).toEqual([
      expect.stringMatching(/\/v1\/projects$/),
      expect.stringMatching(/\/v1\/projects\/proj_\w+\/chat$/),
    ]);
  });

  it('ai-sdk-approval.ts: nothing is created until the approval, then the loop goes on', async () => {
    const output = await runRecipe('ai-sdk-approval.ts');

    expect(output).toBe('approve create_project?\nThe agent proposed a plan.');
    expect(mock.service.projects().map((project) => project.name)).toEqual(['Launch']);
  });

  it('mastra.ts: the agent creates a project and messages its agent through the tools', async () => {
    const output = await runRecipe('mastra.ts');

    expect(output).toBe('create_project send_message\nThe agent proposed a plan.');
    expect(mock.service.projects()).toEqual([
      expect.objectContaining({ name: 'Launch', agentId: 'agent_support' }),
    ]);
    const paths = mock.service.requestLog().map((request) => request.path);
    expect(paths).toEqual([
      expect.stringMatching(/\/v1\/projects$/),
      expect.stringMatching(/\/v1\/projects\/proj_\w+\/chat$/),
    ]);
  });

  it('mastra-approval.ts: the run suspends, nothing is created until the approval', async () => {
    const output = await runRecipe('mastra-approval.ts');

    expect(output).toBe('approve create_project?\nThe agent proposed a plan.');
    expect(mock.service.projects().map((project) => project.name)).toEqual(['Launch']);
  });
});
