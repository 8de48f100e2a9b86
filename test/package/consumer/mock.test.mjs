// A user's own test suite on Node's test runner (`node --test mock.test.mjs`), mocking the service
// with agentchat/testing under whichever msw major the project has installed.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, afterEach, before, test } from 'node:test';
import { Client, NotFoundError } from 'agentchat';
import { createMockService } from 'agentchat/testing';
import { setupServer } from 'msw/node';

const mswVersion = createRequire(import.meta.url)('msw/package.json').version;
const mock = createMockService({ apiKeys: ['sk_test'] });
const server = setupServer(...mock.handlers);
const client = new Client({ apiKey: 'sk_test', baseUrl: mock.baseUrl });

// Requests nothing mocks fail instead of reaching the network. The option is named after the
// msw major: msw 2 silently ignores msw 3's name, and msw 3 msw 2's.
before(() =>
  server.listen(
    mswVersion.startsWith('2.') ? { onUnhandledRequest: 'error' } : { onUnhandledFrame: 'error' },
  ),
);
afterEach(() => mock.reset());
after(() => server.close());

test(`creates, reads back and chats with a project (msw ${mswVersion})`, async () => {
  const created = await client.projects.create({ name: 'Demo', agentId: 'agent_support' });
  const project = await client.projects.get(created.id);
  const reply = await client.chat.send({ projectId: created.id, message: 'Hello' });

  assert.equal(project.name, 'Demo');
  assert.match(reply.message, /agent_support/);
  assert.equal(mock.projects().length, 1);
});

test('retries an injected 503 under one Idempotency-Key', async () => {
  mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });

  await client.projects.create({ name: 'Demo', agentId: 'agent_support' });

  const [first, retry] = mock.requestLog();
  assert.deepEqual([first?.status, retry?.status], [503, 201]);
  assert.equal(retry?.headers['idempotency-key'], first?.headers['idempotency-key']);
});

test('reports an unknown project as NotFoundError', async () => {
  await assert.rejects(client.projects.get('proj_missing'), NotFoundError);
});

test('fails a request that nothing mocks, by the guard rather than at the network', async () => {
  const failure = await fetch('https://unmocked.test/').catch((error) => error);

  // msw 3 wraps its refusal in fetch's TypeError; msw 2 rejects with it directly.
  const refusal = failure?.cause ?? failure;
  assert.match(String(refusal?.message), /"error" strategy/);
});
