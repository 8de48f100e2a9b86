// `<runtime> setup-server.mjs`: the README's "Testing with the mock" outside a test runner, in
// this project as npm installed it (msw/node's setupServer with the mock's handlers, strictListen,
// one call through it), printing one JSON line: the installed msw's version, then how many
// projects the mock stored, or the error strictListen threw.
import { readFileSync } from 'node:fs';
import { Client } from 'agentchat';
import { createMockService, strictListen } from 'agentchat/testing';
import { setupServer } from 'msw/node';

const { version } = JSON.parse(readFileSync('node_modules/msw/package.json', 'utf8'));
const mock = createMockService();
const server = setupServer(...mock.handlers);
let outcome;
let listening = false;
try {
  strictListen(server);
  listening = true;
  const client = new Client({ apiKey: 'sk_test', baseUrl: mock.baseUrl, maxRetries: 0 });
  await client.projects.create({ name: 'Demo', agentId: 'agent_1' });
  outcome = { stored: mock.projects().length };
} catch (error) {
  outcome = { error: error.name, message: error.message };
} finally {
  if (listening) server.close();
}
console.log(JSON.stringify({ msw: version, ...outcome }));
// msw holds a BroadcastChannel open that Deno cannot release (see esm.mjs).
if (typeof Deno !== 'undefined') process.exit(0);
