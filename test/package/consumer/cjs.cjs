// CJS host: `<runtime> cjs.cjs <baseUrl|self> <label>` prints the scenario's result as one JSON
// line. With `self` it first starts the mock server from agentchat/testing in this same runtime.
const sdk = require('agentchat');
const { runScenario } = require('./scenario.cjs');

async function main() {
  const [target, label] = process.argv.slice(2);
  const server =
    target === 'self' ? await require('agentchat/testing').startMockServer() : undefined;
  try {
    const result = await runScenario(sdk, server?.baseUrl ?? target, label);
    // Which file the package resolved to, proving the `require` condition picked the CJS build.
    const entry = require.resolve('agentchat').replace(/^.*\/node_modules\/agentchat\//, '');
    console.log(JSON.stringify({ ...result, entry }));
  } finally {
    await server?.close();
  }
  // msw, under the mock, opens a BroadcastChannel when it loads; Node and Bun let it go (unref),
  // Deno cannot, and would wait on it for ever. Its users end such scripts the same way.
  if (server && typeof Deno !== 'undefined') process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
