// agentchat/ai-sdk in the AI SDK's own loop, from the installed tarball beside one version of
// `ai`: its mock model (ai/test) calls the tools against the mock service at argv[2]. Forked by
// test/package/frameworks-ai-sdk.test.ts, which answers 'abort' when the mock holds the hanging
// request; prints one JSON line of what the model and the loop saw.
import { Client, NotFoundError } from 'agentchat';
import { agentchatTools } from 'agentchat/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { lastOutput, usage } from './ai-sdk-loop.mjs';
import { watchedClientOptions } from './watched-client.mjs';

const [baseUrl, label] = process.argv.slice(2);
const API_KEY = 'sk_ai_sdk_package_9d3f1b7a';
/** The mock model, answering each step from the prompt so far: tool calls, or a text. */
function scripted(steps) {
  let callId = 0;
  const prompts = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt, abortSignal }) => {
      // As a provider's request would: an aborted loop gets no further answer (AI SDK 6.0 asks
      // the model again after an aborted tool call).
      abortSignal?.throwIfAborted();
      prompts.push(prompt);
      const answer = steps[prompts.length - 1](prompt);
      const content =
        'text' in answer
          ? [{ type: 'text', text: answer.text }]
          : answer.calls.map(([toolName, input]) => ({
              type: 'tool-call',
              toolCallId: `call_${++callId}`,
              toolName,
              input: JSON.stringify(input),
            }));
      const reason = 'text' in answer ? 'stop' : 'tool-calls';
      return { content, finishReason: { unified: reason, raw: reason }, usage, warnings: [] };
    },
  });
  return { model, prompts };
}

const { clientOptions, signals } = watchedClientOptions(API_KEY, baseUrl);
const client = new Client(clientOptions);
const result = {};

// Create, read and chat: what the model reads of each result.
{
  const { model, prompts } = scripted([
    () => ({ calls: [['create_project', { name: `Launch ${label}`, agentId: 'agent_support' }]] }),
    (prompt) => ({ calls: [['get_project', { id: lastOutput(prompt).value.id }]] }),
    (prompt) => ({
      calls: [['send_message', { projectId: lastOutput(prompt).value.id, message: 'A plan?' }]],
    }),
    () => ({ text: 'Done.' }),
  ]);
  const run = await generateText({
    model,
    tools: agentchatTools(client),
    stopWhen: stepCountIs(5),
    prompt: 'Go',
  });
  result.text = run.text;
  result.seen = prompts.slice(1).map(lastOutput);
}

// A missing project: the tool error the loop records and the text the model reads.
{
  const { model, prompts } = scripted([
    () => ({ calls: [['get_project', { id: 'proj_missing' }]] }),
    () => ({ text: 'Missing.' }),
  ]);
  const run = await generateText({
    model,
    tools: agentchatTools(client),
    stopWhen: stepCountIs(3),
    prompt: 'Go',
  });
  const error = run.steps
    .flatMap((step) => step.content)
    .find((part) => part.type === 'tool-error');
  result.toolError = {
    isNotFound: error?.error instanceof NotFoundError,
    seen: lastOutput(prompts[1]),
  };
  result.keyInPrompts = JSON.stringify(prompts).includes(API_KEY);
}

// needsApproval: the loop stops at an approval request, nothing sent.
{
  const { model } = scripted([
    () => ({ calls: [['create_project', { name: `Unapproved ${label}`, agentId: 'agent_1' }]] }),
  ]);
  const run = await generateText({
    model,
    tools: agentchatTools(client, { needsApproval: true }),
    stopWhen: stepCountIs(3),
    prompt: 'Go',
  });
  result.approvalRequests = run.content
    .filter((part) => part.type === 'tool-approval-request')
    .map((part) => part.toolCall.toolName);
}

// readOnly and tools: what the model is offered.
{
  const offered = [];
  for (const options of [{ readOnly: true }, { tools: ['send_message', 'create_project'] }]) {
    const { model } = scripted([() => ({ text: 'Hi.' })]);
    await generateText({ model, tools: agentchatTools(client, options), prompt: 'Go' });
    offered.push(model.doGenerateCalls[0].tools.map((tool) => tool.name));
  }
  result.offered = offered;
}

// Abort: the loop's abortSignal reaches the request the mock holds.
{
  const { model } = scripted([() => ({ calls: [['get_project', { id: 'proj_hang' }]] })]);
  const controller = new AbortController();
  process.on('message', (message) => {
    if (message === 'abort') controller.abort(new Error('the user moved on'));
  });
  const sent = signals.length;
  const run = generateText({
    model,
    tools: agentchatTools(client),
    abortSignal: controller.signal,
    stopWhen: stepCountIs(3),
    prompt: 'Go',
  });
  process.send?.('waiting');
  result.aborted = await run.then(
    () => 'finished',
    (error) => (error instanceof Error ? error.message : String(error)),
  );
  result.requestSignalAborted = signals.slice(sent).map((signal) => signal?.aborted);
}

console.log(JSON.stringify(result));
process.exit(0);
