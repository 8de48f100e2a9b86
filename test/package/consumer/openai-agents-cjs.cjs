// agentchat/openai-agents required from CommonJS beside `@openai/agents`: one run of the Agents
// SDK's loop creating a project through the tools against the mock at argv[2]. Prints one JSON
// line: what the model read, and which build each `require` resolved to.
const { Agent, run } = require('@openai/agents');
const {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
} = require('@openai/agents/testing');
const { Client } = require('agentchat');
const { agentchatTools } = require('agentchat/openai-agents');

const model = new ScriptedModel([
  modelResponder(() => [
    functionCall('create_project', { name: 'From CJS', agentId: 'agent_1' }, { callId: 'call_1' }),
  ]),
  modelResponder(() => [assistantMessage('Created.')]),
]);

const client = new Client({ apiKey: 'sk_openai_agents_cjs_6f2d8b1e', baseUrl: process.argv[2] });
const agent = new Agent({ name: 'Projects', model, tools: agentchatTools(client) });

run(agent, 'Go').then(
  (result) => {
    const [, second] = model.calls;
    const output = second.request.input.find((item) => item.type === 'function_call_result');
    const entry = (name) => require.resolve(name).replace(/^.*\/node_modules\/agentchat\//, '');
    console.log(
      JSON.stringify({
        text: result.finalOutput,
        seen: JSON.parse(output.output.text),
        entries: [entry('agentchat'), entry('agentchat/openai-agents')],
      }),
    );
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
