// agentchat/mastra in Mastra's own agent loop, from the installed tarball beside one version of
// @mastra/core: a scripted model (mastra-model.mjs) calls the tools against the mock service at
// argv[2]. Forked by test/package/frameworks-mastra.test.ts, which answers 'abort' when the mock
// holds the hanging request; prints one JSON line of what the model and the loop saw.
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { Client } from 'agentchat';
import { agentchatTools } from 'agentchat/mastra';
import { lastOutput, scriptedModel } from './mastra-model.mjs';
import { watchedClientOptions } from './watched-client.mjs';

const [baseUrl, label] = process.argv.slice(2);
const API_KEY = 'sk_mastra_package_2c7e9d14';
/**
 * An agent with `tools` and a model answering `steps`, on a Mastra instance whose storage keeps a
 * suspended run for its approval.
 */
function scripted(tools, steps) {
  const { model, prompts } = scriptedModel(steps);
  const agent = new Agent({ id: 'projects', name: 'Projects', instructions: 'Go', model, tools });
  new Mastra({ agents: { projects: agent }, storage: new InMemoryStore(), logger: false });
  return { agent, model, prompts };
}

const { clientOptions, signals } = watchedClientOptions(API_KEY, baseUrl, {
  // Longer than the test waits: only the run's abort can end the request the mock holds.
  timeout: 600_000,
});
const client = new Client(clientOptions);
const result = {};

// Create, read and chat: what the model reads of each result.
{
  const { agent, prompts } = scripted(agentchatTools(client), [
    () => ({ calls: [['create_project', { name: `Launch ${label}`, agentId: 'agent_support' }]] }),
    (prompt) => ({ calls: [['get_project', { id: lastOutput(prompt).value.id }]] }),
    (prompt) => ({
      calls: [['send_message', { projectId: lastOutput(prompt).value.id, message: 'A plan?' }]],
    }),
    () => ({ text: 'Done.' }),
  ]);
  const run = await agent.generate('Go', { maxSteps: 5 });
  result.text = run.text;
  result.seen = prompts.slice(1).map(lastOutput);
}

// A missing project: the tool error the model reads; and arguments the client refuses.
{
  const { agent, prompts } = scripted(agentchatTools(client), [
    () => ({ calls: [['get_project', { id: 'proj_missing' }]] }),
    () => ({ calls: [['create_project', { name: `Refused ${label}`, agentID: 'agent_1' }]] }),
    () => ({ text: 'Missing.' }),
  ]);
  await agent.generate('Go', { maxSteps: 5 });
  result.toolError = lastOutput(prompts[1]);
  result.refused = lastOutput(prompts[2]);
  result.keyInPrompts = JSON.stringify(prompts).includes(API_KEY);
}

// needsApproval: the run suspends with nothing sent, and the approval sends the call.
{
  const { agent } = scripted(agentchatTools(client, { needsApproval: true }), [
    () => ({ calls: [['create_project', { name: `Approved ${label}`, agentId: 'agent_1' }]] }),
    () => ({ text: 'Created.' }),
  ]);
  const sent = signals.length;
  const asked = await agent.generate('Go', { maxSteps: 3 });
  result.approval = {
    finishReason: asked.finishReason,
    toolName: asked.suspendPayload?.toolName,
    sentBeforeApproval: signals.length - sent,
  };
  const approved = await agent.approveToolCallGenerate({
    runId: asked.runId,
    toolCallId: asked.suspendPayload?.toolCallId,
  });
  result.approval.afterApproval = approved.text;
  result.approval.sentAfterApproval = signals.length - sent;
}

// readOnly and tools: what the model is offered.
{
  const offered = [];
  for (const options of [{ readOnly: true }, { tools: ['send_message', 'create_project'] }]) {
    const { agent, model } = scripted(agentchatTools(client, options), [() => ({ text: 'Hi.' })]);
    await agent.generate('Go');
    offered.push(model.doGenerateCalls[0].tools.map((tool) => tool.name));
  }
  result.offered = offered;
}

// Abort: the run's abortSignal reaches the request the mock holds.
{
  const { agent, prompts } = scripted(agentchatTools(client), [
    () => ({ calls: [['get_project', { id: 'proj_hang' }]] }),
    () => ({ text: 'Read.' }),
  ]);
  const controller = new AbortController();
  process.on('message', (message) => {
    if (message === 'abort') controller.abort(new Error('the user moved on'));
  });
  const sent = signals.length;
  const run = agent.generate('Go', { maxSteps: 3, abortSignal: controller.signal });
  process.send?.('waiting');
  await run.catch(() => undefined);
  result.abortedAfterSteps = prompts.length;
  result.requestSignalAborted = signals.slice(sent).map((signal) => signal?.aborted);
}

console.log(JSON.stringify(result));
process.exit(0);
