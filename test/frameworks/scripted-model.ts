/**
 * The AI SDK's own mock model (`ai/test`), scripted: each step reads the prompt so far (the tool
 * results the loop gave it) and answers with tool calls or text, as a real model would.
 */
import { MockLanguageModelV3 } from 'ai/test';

/** The messages a model is given: the conversation so far, tool results included. */
export type ModelPrompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];

/** What one step of the model answers: tool calls (name and input), or a final text. */
export type ModelStep = (
  prompt: ModelPrompt,
) => { calls: ReadonlyArray<{ name: string; input: unknown }> } | { text: string };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A mock model that answers `steps` in order, and the prompts it was given. */
export function scriptedModel(steps: readonly ModelStep[]) {
  const prompts: ModelPrompt[] = [];
  let callId = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      const step = steps[prompts.length - 1];
      if (!step) throw new Error(`The script has no step ${prompts.length}.`);
      const answer = step(prompt);
      if ('text' in answer) {
        return {
          content: [{ type: 'text', text: answer.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: answer.calls.map(({ name, input }) => ({
          type: 'tool-call' as const,
          toolCallId: `call_${++callId}`,
          toolName: name,
          input: JSON.stringify(input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

/** The output of the last tool result in `prompt`, as the model reads it. */
export function lastToolOutput(prompt: ModelPrompt): unknown {
  for (const message of [...prompt].reverse()) {
    if (message.role !== 'tool') continue;
    for (const part of [...message.content].reverse()) {
      if (part.type === 'tool-result') return part.output;
    }
  }
  return undefined;
}
