// agentchat/langchain in LangChain's own agent loop (createAgent), from the installed tarball
// beside one version of @langchain/core and langchain: a scripted model (langchain-model.mjs) calls
// the tools against the mock service at argv[2]. Forked by
// test/package/frameworks-langchain.test.ts, which answers 'abort' when the mock holds the hanging
// request; prints one JSON line of what the model and the loop saw.
import { createRequire } from 'node:module';
import { ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { Client } from 'agentchat';
import { agentchatInterruptOn, agentchatTools } from 'agentchat/langchain';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { lastResult, lastTool, scriptedModel } from './langchain-model.mjs';
import { watchedClientOptions } from './watched-client.mjs';

const [baseUrl, label] = process.argv.slice(2);
const API_KEY = 'sk_langchain_package_2c7e9f4a';
const ask = (content) => ({ messages: [{ role: 'user', content }] });
const seenBy = (messages) => {
  const message = lastTool(messages);
  return { name: message.name, status: message.status, text: message.text };
};

const { clientOptions, signals } = watchedClientOptions(API_KEY, baseUrl);
const client = new Client(clientOptions);
const result = {};

// Create, read and chat: what the model reads of each result, and the typed artifacts.
{
  const seen = [];
  const read = (messages) => {
    seen.push(lastTool(messages));
    return lastResult(messages);
  };
  const model = await scriptedModel([
    () => ({ calls: [['create_project', { name: `Launch ${label}`, agentId: 'agent_support' }]] }),
    (messages) => ({ calls: [['get_project', { id: read(messages).id }]] }),
    (messages) => ({
      calls: [['send_message', { projectId: read(messages).id, message: 'A plan?' }]],
    }),
    (messages) => {
      read(messages);
      return { text: 'Done.' };
    },
  ]);
  const run = await createAgent({ model, tools: agentchatTools(client) }).invoke(ask('Go'));
  result.text = run.messages.at(-1).text;
  result.seen = seen.map((message) => ({
    name: message.name,
    status: message.status,
    value: JSON.parse(message.text),
    artifactIsValue: JSON.stringify(message.artifact) === message.text,
  }));
}

// A missing project, and arguments outside the schema: the error tool messages the model reads.
{
  const seen = [];
  const model = await scriptedModel([
    () => ({ calls: [['get_project', { id: 'proj_missing' }]] }),
    (messages) => {
      seen.push(seenBy(messages));
      return { calls: [['create_project', { name: `Refused ${label}`, agentID: 'agent_1' }]] };
    },
    (messages) => {
      seen.push(seenBy(messages));
      return { text: 'Oops.' };
    },
  ]);
  const run = await createAgent({ model, tools: agentchatTools(client) }).invoke(ask('Go'));
  result.errors = seen;
  result.keyInMessages = JSON.stringify(run.messages).includes(API_KEY);
}

// Approval at the agent: the run stops at an interrupt, nothing sent until approved.
{
  const model = await scriptedModel([
    () => ({ calls: [['create_project', { name: `Approved ${label}`, agentId: 'agent_1' }]] }),
    () => ({ text: 'Created.' }),
  ]);
  const agent = createAgent({
    model,
    tools: agentchatTools(client),
    middleware: [
      humanInTheLoopMiddleware({ interruptOn: agentchatInterruptOn({ needsApproval: true }) }),
    ],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: label } };
  const sent = signals.length;
  const asked = await agent.invoke(ask('Go'), config);
  result.approvalRequests = asked.__interrupt__[0].value.actionRequests.map(
    (action) => action.name,
  );
  result.sentWhileWaiting = signals.length - sent;
  const done = await agent.invoke(
    new Command({ resume: { decisions: [{ type: 'approve' }] } }),
    config,
  );
  result.afterApproval = done.messages.at(-1).text;
}

// readOnly and tools: what the model is offered.
{
  const offered = [];
  for (const options of [{ readOnly: true }, { tools: ['send_message', 'create_project'] }]) {
    const model = await scriptedModel([() => ({ text: 'Hi.' })], offered);
    await createAgent({ model, tools: agentchatTools(client, options) }).invoke(ask('Go'));
  }
  result.offered = offered;
}

// The CJS build, required beside LangChain's CJS build, answers a tool call with a ToolMessage.
{
  const require = createRequire(import.meta.url);
  const cjs = require('agentchat/langchain');
  const { Client: CjsClient } = require('agentchat');
  const { ToolMessage: CjsToolMessage } = require('@langchain/core/messages');
  const [getProject] = cjs.agentchatTools(new CjsClient(clientOptions), { readOnly: true });
  const message = await getProject.invoke({
    name: 'get_project',
    args: { id: 'proj_missing' },
    id: 'call_cjs',
    type: 'tool_call',
  });
  result.cjs = {
    differentModule: cjs.agentchatTools !== agentchatTools,
    toolMessage: CjsToolMessage.isInstance(message) && ToolMessage.isInstance(message),
    status: message.status,
  };
}

// Abort: the signal of the agent's invoke config reaches the request the mock holds.
{
  const model = await scriptedModel([() => ({ calls: [['get_project', { id: 'proj_hang' }]] })]);
  const controller = new AbortController();
  process.on('message', (message) => {
    if (message === 'abort') controller.abort(new Error('the user moved on'));
  });
  const sent = signals.length;
  const run = createAgent({ model, tools: agentchatTools(client) }).invoke(ask('Go'), {
    signal: controller.signal,
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
