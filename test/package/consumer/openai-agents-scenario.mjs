// agentchat/openai-agents in the OpenAI Agents SDK's own loop (`run()`), from the installed
// tarball beside one version of `@openai/agents`: its scripted model (@openai/agents/testing)
// calls the tools against the mock service at argv[2]. Forked by
// test/package/frameworks-openai-agents.test.ts, which answers 'abort' when the mock holds the
// hanging request; prints one JSON line of what the model and the run saw.
import { Agent, run } from '@openai/agents';
import {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
} from '@openai/agents/testing';
import { Client } from 'agentchat';
import { agentchatTools } from 'agentchat/openai-agents';
import { watchedClientOptions } from './watched-client.mjs';

const [baseUrl, label] = process.argv.slice(2);
const API_KEY = 'sk_openai_agents_package_3e7a9c1d';

/** The text of each tool result in a model request's input. */
const toolOutputs = (request) =>
  (typeof request.input === 'string' ? [] : request.input)
    .filter((item) => item.type === 'function_call_result')
    .map((item) => (typeof item.output === 'string' ? item.output : item.output.text));

/** The scripted model, answering each call from what the run gave it so far. */
function scripted(steps) {
  let callId = 0;
  return new ScriptedModel(
    steps.map((step) =>
      modelResponder(({ request }) => {
        const answer = step(toolOutputs(request).at(-1));
        if ('text' in answer) return [assistantMessage(answer.text)];
        return answer.calls.map(([name, args]) =>
          functionCall(name, args, { callId: `call_${++callId}` }),
        );
      }),
    ),
  );
}

const agentWith = (model, tools) => new Agent({ name: 'Projects', model, tools });

const { clientOptions, signals } = watchedClientOptions(API_KEY, baseUrl);
const client = new Client(clientOptions);
const result = {};

// Create, read and chat: what the model reads of each result, and what the run holds.
{
  const model = scripted([
    () => ({ calls: [['create_project', { name: `Launch ${label}`, agentId: 'agent_support' }]] }),
    (last) => ({ calls: [['get_project', { id: JSON.parse(last).id }]] }),
    (last) => ({
      calls: [['send_message', { projectId: JSON.parse(last).id, message: 'A plan?' }]],
    }),
    () => ({ text: 'Done.' }),
  ]);
  const run1 = await run(agentWith(model, agentchatTools(client)), 'Go');
  result.text = run1.finalOutput;
  result.seen = model.calls.slice(1).map((call) => JSON.parse(toolOutputs(call.request).at(-1)));
  result.outputs = run1.newItems
    .filter((item) => item.type === 'tool_call_output_item')
    .map((item) => item.output);
}

// A missing project: the tool's output the model reads.
{
  const model = scripted([
    () => ({ calls: [['get_project', { id: 'proj_missing' }]] }),
    () => ({ text: 'Missing.' }),
  ]);
  await run(agentWith(model, agentchatTools(client)), 'Go');
  result.toolError = toolOutputs(model.calls[1].request).at(-1);
  result.keyInInputs = JSON.stringify(model.calls.map((call) => call.request.input)).includes(
    API_KEY,
  );
}

// needsApproval: the run stops at an interruption, nothing sent; approved, it is sent.
{
  const model = scripted([
    () => ({ calls: [['create_project', { name: `Approved ${label}`, agentId: 'agent_1' }]] }),
    () => ({ text: 'Created.' }),
  ]);
  const agent = agentWith(model, agentchatTools(client, { needsApproval: true }));
  const sent = signals.length;
  const asked = await run(agent, 'Go');
  result.interruptions = asked.interruptions.map((item) => item.name);
  result.sentBeforeApproval = signals.length - sent;
  for (const interruption of asked.interruptions) asked.state.approve(interruption);
  const resumed = await run(agent, asked.state);
  result.afterApproval = resumed.finalOutput;
  result.sentAfterApproval = signals.length - sent;
}

// readOnly and tools: what the model is offered.
{
  const offered = [];
  for (const options of [{ readOnly: true }, { tools: ['send_message', 'create_project'] }]) {
    const model = scripted([() => ({ text: 'Hi.' })]);
    await run(agentWith(model, agentchatTools(client, options)), 'Go');
    offered.push(model.firstCall.request.tools.map((tool) => [tool.name, tool.strict]));
  }
  result.offered = offered;
}

// Abort: run()'s signal reaches the request the mock holds.
{
  const model = scripted([() => ({ calls: [['get_project', { id: 'proj_hang' }]] })]);
  const controller = new AbortController();
  process.on('message', (message) => {
    if (message === 'abort') controller.abort(new Error('the user moved on'));
  });
  const sent = signals.length;
  const running = run(agentWith(model, agentchatTools(client)), 'Go', {
    signal: controller.signal,
  });
  process.send?.('waiting');
  result.aborted = await running.then(
    () => 'finished',
    (error) => (error instanceof Error ? error.message : String(error)),
  );
  // Why the request's signal fired: the run's abort, not the client's own timeout.
  result.requestSignalReasons = signals
    .slice(sent)
    .map((signal) => (signal?.reason instanceof Error ? signal.reason.message : signal?.reason));
  result.modelCallsAfterAbort = model.calls.length - 1;
}

console.log(JSON.stringify(result));
process.exit(0);
