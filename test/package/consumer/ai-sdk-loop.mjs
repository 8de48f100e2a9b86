// The AI SDK's loop, with its mock model, creating a project, reading it and chatting with its
// agent through agentchat/ai-sdk; shared by the Worker (ai-sdk-worker.mjs) and the browser page
// (ai-sdk-browser-app.mjs) that the packaging tests bundle.
import { Client } from 'agentchat';
import { agentchatTools } from 'agentchat/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The last tool result the model was given. */
export const lastOutput = (prompt) =>
  prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .filter((part) => part.type === 'tool-result')
    .at(-1)?.output;

/** Create, then read, then chat, then answer: each step from the result before it. */
function nextStep(prompt) {
  const last = lastOutput(prompt)?.value;
  if (last === undefined) {
    return ['create_project', { name: 'Launch', agentId: 'agent_support' }];
  }
  if (!('agentId' in last) && 'id' in last) return ['get_project', { id: last.id }];
  if ('agentId' in last) return ['send_message', { projectId: last.id, message: 'A plan?' }];
  return undefined;
}

/** Runs the loop with a client made of `clientOptions`; returns what the model read. */
export async function runToolLoop(clientOptions) {
  const seen = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      seen.push(lastOutput(prompt));
      const call = nextStep(prompt);
      const content = call
        ? [
            {
              type: 'tool-call',
              toolCallId: `call_${seen.length}`,
              toolName: call[0],
              input: JSON.stringify(call[1]),
            },
          ]
        : [{ type: 'text', text: 'Done.' }];
      const reason = call ? 'tool-calls' : 'stop';
      return { content, finishReason: { unified: reason, raw: reason }, usage, warnings: [] };
    },
  });
  const { text } = await generateText({
    model,
    tools: agentchatTools(new Client(clientOptions)),
    stopWhen: stepCountIs(5),
    prompt: 'Go',
  });
  return { text, seen: seen.slice(1) };
}
