// agentchat/mastra through require(): its CJS build, with the CJS builds of agentchat and
// @mastra/core, creating a project in Mastra's loop with the scripted model against the mock
// service at argv[2]. Run by test/package/frameworks-mastra.test.ts; prints one JSON line.
const { Agent } = require('@mastra/core/agent');
const { Client, ConfigurationError } = require('agentchat');
const { agentchatTools } = require('agentchat/mastra');
// An ES module, which Node.js 22.12 and later require() too.
const { scriptedModel } = require('./mastra-model.mjs');

const [baseUrl, label] = process.argv.slice(2);

async function main() {
  const { model } = scriptedModel([
    () => ({ calls: [['create_project', { name: `CJS ${label}`, agentId: 'agent_support' }]] }),
    () => ({ text: 'Created.' }),
  ]);
  const client = new Client({ apiKey: 'sk_mastra_cjs_6f1a', baseUrl, maxRetries: 0 });
  const agent = new Agent({
    id: 'projects',
    name: 'Projects',
    instructions: 'Go',
    model,
    tools: agentchatTools(client),
  });
  const run = await agent.generate('Go', { maxSteps: 3 });
  const created = run.steps
    .flatMap((step) => step.content)
    .find((part) => part.type === 'tool-result');
  let refused;
  try {
    agentchatTools(client, { readOnly: true, tools: ['create_project'] });
  } catch (error) {
    refused = error instanceof ConfigurationError;
  }
  console.log(JSON.stringify({ text: run.text, created: created?.output, refused }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
