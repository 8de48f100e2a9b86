// The model Mastra's loop runs in the packaging tests: Mastra agents take any AI SDK language
// model, and this is the smallest one, written to the model interface (specification v2) that
// every @mastra/core 1.x takes. Mastra's own mock (@mastra/core/test-utils/llm-mock) cannot serve:
// in 1.11 the agent wraps its already wrapped answer again and fails.
// Shared by mastra-scenario.mjs and mastra-cjs.cjs.

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** The last tool result in a prompt, as the model reads it. */
export const lastOutput = (prompt) =>
  prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .filter((part) => part.type === 'tool-result')
    .at(-1)?.output;

/**
 * A model answering `steps` in order, each from the prompt so far: `{ calls: [[name, input]] }`
 * or `{ text }`. Returns it with the prompts it was given and the options of each call.
 */
export function scriptedModel(steps) {
  let callId = 0;
  const prompts = [];
  const doGenerateCalls = [];
  const model = {
    specificationVersion: 'v2',
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    doGenerateCalls,
    async doGenerate(options) {
      // As a provider's request would: an aborted run gets no further answer.
      options.abortSignal?.throwIfAborted();
      doGenerateCalls.push(options);
      prompts.push(options.prompt);
      const answer = steps[prompts.length - 1](options.prompt);
      const content =
        'text' in answer
          ? [{ type: 'text', text: answer.text }]
          : answer.calls.map(([toolName, input]) => ({
              type: 'tool-call',
              toolCallId: `call_${++callId}`,
              toolName,
              input: JSON.stringify(input),
            }));
      const finishReason = 'text' in answer ? 'stop' : 'tool-calls';
      return { content, finishReason, usage, warnings: [] };
    },
    async doStream() {
      throw new Error('This model answers agent.generate only.');
    },
  };
  return { model, prompts };
}
