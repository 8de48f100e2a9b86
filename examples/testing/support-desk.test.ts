/**
 * Tests of application code with the mock service: no network, no real key, and faults on demand.
 *
 *   npx vitest run --config examples/testing/vitest.config.ts
 */
import { AuthenticationError, Client } from 'agentchat';
import { createMockService, strictListen } from 'agentchat/testing';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { askSupport, UNAVAILABLE } from './support-desk.js';

const API_KEY = 'sk_test_support_desk';

// One mock per test file. msw intercepts fetch, so the client talks to the mock in-process;
// a request to anything else fails the test instead of reaching the network.
const mock = createMockService({ apiKeys: [API_KEY] });
const server = setupServer(...mock.handlers);
beforeAll(() => strictListen(server));
afterEach(() => mock.reset()); // empties the store, the fault queue, overrides and the request log
afterAll(() => server.close());

// Retries wait 0.5 s, 1 s, ...; most faults below say `retry-after: 0` so the tests do not wait.
const client = new Client({ apiKey: API_KEY, baseUrl: mock.baseUrl });

describe('askSupport', () => {
  it("returns the agent's answer and follow-ups", async () => {
    const result = await askSupport(client, 'cust_42', 'Where is my order?');

    expect(result.fromAgent).toBe(true);
    expect(result.answer).toContain('Where is my order?');
    expect(result.followUps).toHaveLength(3);
    expect(mock.projects()).toEqual([
      expect.objectContaining({
        id: result.projectId,
        name: 'Support for cust_42',
        agentId: 'agent_support',
        metadata: { customerId: 'cust_42' },
      }),
    ]);
  });

  it('creates one project when the same question is asked twice', async () => {
    const first = await askSupport(client, 'cust_42', 'Where is my order?');
    const second = await askSupport(client, 'cust_42', 'Where is my order?');

    expect(second.projectId).toBe(first.projectId);
    expect(mock.projects()).toHaveLength(1);
  });

  it('survives a brief outage through the client retries', async () => {
    mock.enqueue(
      { kind: 'network-error' }, // retried after the client's own backoff (about 0.5 s)
      { kind: 'status', status: 503, headers: { 'retry-after': '0' } }, // retried at once
    );

    const result = await askSupport(client, 'cust_7', 'Can I change my plan?');

    expect(result.fromAgent).toBe(true);
    // The create failed twice and succeeded on its third attempt, each with the same key.
    const creates = mock.requestLog().filter((r) => r.path.endsWith('/v1/projects'));
    expect(creates.map((r) => r.status)).toEqual([undefined, 503, 201]);
    expect(new Set(creates.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('apologises when the agent stays unavailable', async () => {
    // Only the chat fails, on every attempt (the client retries twice by default); creating
    // the project still works.
    mock.override('chat.send', () => ({
      kind: 'status',
      status: 503,
      headers: { 'retry-after': '0' },
    }));

    const result = await askSupport(client, 'cust_9', 'Is there an outage?');

    expect(result).toMatchObject({ fromAgent: false, answer: UNAVAILABLE, followUps: [] });
    expect(mock.requestLog().map((r) => r.status)).toEqual([201, 503, 503, 503]);
  });

  it('offers at most three follow-ups, and only those it can show as text', async () => {
    // The service does not fix the shape of a suggestion: script a reply that tests the filter.
    mock.override('chat.send', ({ project }) => ({
      message: `${project?.name} here`,
      suggestions: ['Track it', { action: 'open-map' }, 'Call me', 'Email me', 'Cancel it'],
    }));

    const result = await askSupport(client, 'cust_5', 'Where is my order?');

    expect(result).toMatchObject({
      answer: 'Support for cust_5 here',
      followUps: ['Track it', 'Call me', 'Email me'],
      fromAgent: true,
    });
  });

  it('lets a refused key surface instead of hiding it', async () => {
    const wrongKey = new Client({ apiKey: 'sk_revoked', baseUrl: mock.baseUrl });

    await expect(askSupport(wrongKey, 'cust_1', 'Hello?')).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(mock.projects()).toEqual([]);
  });
});
