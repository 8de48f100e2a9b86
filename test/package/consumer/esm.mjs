// ESM host: `<runtime> esm.mjs <baseUrl|self> <label>` prints the scenario's result as one JSON
// line. With `self` it first starts the mock server from agentchat/testing in this same runtime.
import * as sdk from 'agentchat';
import scenario from './scenario.cjs';

const [target, label] = process.argv.slice(2);
const server =
  target === 'self' ? await (await import('agentchat/testing')).startMockServer() : undefined;
try {
  const result = await scenario.runScenario(sdk, server?.baseUrl ?? target, label);
  // Which file the package resolved to, proving the `import` condition picked the ESM build.
  const entry = import.meta.resolve('agentchat').replace(/^.*\/node_modules\/agentchat\//, '');
  console.log(JSON.stringify({ ...result, entry }));
} finally {
  await server?.close();
}
// msw, under the mock, opens a BroadcastChannel when it loads; Node and Bun let it go (unref),
// Deno cannot, and would wait on it for ever. Its users end such scripts the same way.
if (server && typeof Deno !== 'undefined') process.exit(0);
