/**
 * The diagnostics channels as an APM vendor meets them: a bare `node:diagnostics_channel`
 * subscriber, no OpenTelemetry, against the mock service on 127.0.0.1.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APITimeoutError,
  type AttemptChannelContext,
  type CallChannelContext,
  Client,
  InternalServerError,
  NotFoundError,
} from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

const apiKey = 'sk_test_9d2f4b6a8c0e1f3a';

type Event = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';
const EVENTS: readonly Event[] = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];

/** Subscribes to every event of a tracing channel, recording each with a copy of its context. */
function record<Context extends object>(name: string) {
  const channel = diagnosticsChannel.tracingChannel<unknown, Context>(name);
  const events: { event: Event; context: Context }[] = [];
  const handlers = Object.fromEntries(
    EVENTS.map((event) => [
      event,
      (context: Context) => events.push({ event, context: { ...context } }),
    ]),
  ) as unknown as diagnosticsChannel.TracingChannelSubscribers<Context>;
  channel.subscribe(handlers);
  return { events, stop: () => channel.unsubscribe(handlers) };
}

let server: MockServer;
let calls: ReturnType<typeof record<CallChannelContext>>;
let attempts: ReturnType<typeof record<AttemptChannelContext>>;
let client: Client;

beforeAll(async () => {
  server = await startMockServer({ apiKeys: [apiKey] });
  client = new Client({ apiKey, baseUrl: server.baseUrl });
});
afterAll(() => server.close());
afterEach(() => {
  calls?.stop();
  attempts?.stop();
  server.service.reset();
});

function subscribe() {
  calls = record<CallChannelContext>('agentchat:call');
  attempts = record<AttemptChannelContext>('agentchat:attempt');
}

describe('agentchat:call and agentchat:attempt', () => {
  it('trace a call and its attempt, event by event, with what an APM needs', async () => {
    subscribe();
    const project = await client.projects.create({ name: 'Traced', agentId: 'agent_1' });

    expect(calls.events.map(({ event }) => event)).toEqual([
      'start',
      'end',
      'asyncStart',
      'asyncEnd',
    ]);
    const [started, , , ended] = calls.events;
    const [logged] = server.service.requestLog();
    expect(started?.context).toEqual({
      operation: 'projects.create',
      method: 'POST',
      url: `${server.baseUrl}/v1/projects`,
      idempotencyKey: logged?.headers['idempotency-key'],
      params: { name: 'Traced', agentId: 'agent_1' },
    });
    expect(ended?.context).toMatchObject({
      attempts: 1,
      requestId: logged?.requestId,
      result: project,
    });

    expect(attempts.events.map(({ event }) => event)).toEqual([
      'start',
      'end',
      'asyncStart',
      'asyncEnd',
    ]);
    const attemptStart = attempts.events[0]?.context;
    expect(attemptStart).toMatchObject({
      operation: 'projects.create',
      attempt: 0,
      method: 'POST',
      url: `${server.baseUrl}/v1/projects`,
    });
    expect(attemptStart?.headers['idempotency-key']).toBe(logged?.headers['idempotency-key']);
    expect(attemptStart?.headers['content-type']).toBe('application/json');
    expect(attempts.events[3]?.context.status).toBe(201);
  });

  it('see each attempt of a retried call, and the call end once after them', async () => {
    subscribe();
    server.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });
    await client.projects.get((await client.projects.create({ name: 'A', agentId: 'agent_1' })).id);
    const ends = attempts.events.filter(({ event }) => event === 'asyncEnd');
    expect(ends.map(({ context }) => [context.operation, context.attempt, context.status])).toEqual(
      [
        ['projects.create', 0, 503],
        ['projects.create', 1, 201],
        ['projects.get', 0, 200],
      ],
    );
    const callEnds = calls.events.filter(({ event }) => event === 'asyncEnd');
    expect(callEnds.map(({ context }) => [context.operation, context.attempts])).toEqual([
      ['projects.create', 2],
      ['projects.get', 1],
    ]);
  });

  it('publish the error a failing call and its attempts end with', async () => {
    subscribe();
    server.service.enqueue({ kind: 'network-error' });
    const error = await client.projects
      .get('proj_missing', { maxRetries: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);

    expect(calls.events.map(({ event }) => event)).toEqual([
      'start',
      'end',
      'error',
      'asyncStart',
      'asyncEnd',
    ]);
    const failed = calls.events[2]?.context;
    expect(failed?.error).toBe(error);
    expect(failed?.requestId).toBe((error as NotFoundError).requestId);
    expect(failed?.attempts).toBe(2);

    const ends = attempts.events.filter(({ event }) => event === 'asyncEnd');
    expect(
      ends.map(({ context }) => [context.attempt, context.error?.name, context.status]),
    ).toEqual([
      [0, 'APIConnectionError', undefined],
      [1, undefined, 404],
    ]);
  });

  it.each([
    ['its own timeout', { timeout: 100 }, '100 ms per attempt'],
    ["the call's totalTimeout", { timeout: 5_000, totalTimeout: 100 }, '100 ms for the whole call'],
  ])(
    'publish an attempt cut off by %s as the APITimeoutError the call ends with',
    async (_, limits, said) => {
      subscribe();
      server.service.enqueue({ kind: 'hang' });
      const error = await client.projects
        .get('proj_1', { ...limits, maxRetries: 0 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(APITimeoutError);
      expect((error as APITimeoutError).message).toContain(said);

      const [ended] = attempts.events.filter(({ event }) => event === 'asyncEnd');
      expect(ended?.context.error).toBeInstanceOf(APITimeoutError);
      // The attempt names the limit that ran out as the call's own error does.
      expect(ended?.context.error?.message).toBe((error as APITimeoutError).message);
      expect(calls.events.at(-1)?.context.error).toBe(error);
    },
  );

  it('count the replay after a 401 as an attempt', async () => {
    subscribe();
    const tokens = ['sk_refused_by_the_service', apiKey];
    const renewing = new Client({
      apiKey: async () => tokens.shift() ?? apiKey,
      baseUrl: server.baseUrl,
    });
    await renewing.projects.create({ name: 'Replayed', agentId: 'agent_1' });
    const ends = attempts.events.filter(({ event }) => event === 'asyncEnd');
    expect(ends.map(({ context }) => [context.attempt, context.status])).toEqual([
      [0, 401],
      [1, 201],
    ]);
  });

  it('send a header a subscriber adds in start, but never replace one the request has', async () => {
    const channel = diagnosticsChannel.tracingChannel<unknown, AttemptChannelContext>(
      'agentchat:attempt',
    );
    const addHeaders = (message: unknown) => {
      const context = message as AttemptChannelContext;
      context.headers.traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      context.headers.accept = 'text/plain';
    };
    channel.start.subscribe(addHeaders);
    try {
      await client.projects.create({ name: 'Headers', agentId: 'agent_1' });
    } finally {
      channel.start.unsubscribe(addHeaders);
    }
    const [logged] = server.service.requestLog();
    expect(logged?.headers.traceparent).toBe(
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    );
    expect(logged?.headers.accept).toBe('application/json');
  });

  it('hold no key or token in any context', async () => {
    subscribe();
    const leaky = new Client({
      apiKey,
      baseUrl: server.baseUrl,
      headers: { 'x-api-key': apiKey, 'x-team': 'search' },
      maxRetries: 1,
    });
    server.service.enqueue(
      { kind: 'status', status: 500, headers: { 'retry-after': '0' } },
      { kind: 'status', status: 500 },
    );
    const error = await leaky.chat
      .send({ projectId: 'proj_1', message: 'hi' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    const seen = JSON.stringify([
      ...calls.events.map(({ context }) => ({ ...context, error: String(context.error) })),
      ...attempts.events,
    ]);
    expect(seen).toContain('x-team');
    expect(seen).not.toContain(apiKey);
    expect(attempts.events[0]?.context.headers).not.toHaveProperty('authorization');
    expect(attempts.events[0]?.context.headers).not.toHaveProperty('x-api-key');
  });

  it('publish nothing for a call refused before sending, and cost nothing unsubscribed', async () => {
    subscribe();
    await expect(client.projects.get('')).rejects.toThrow();
    expect(calls.events).toEqual([]);
    calls.stop();
    attempts.stop();
    expect(diagnosticsChannel.tracingChannel('agentchat:call').hasSubscribers).toBe(false);
    await client.projects.create({ name: 'Quiet', agentId: 'agent_1' });
    expect(calls.events).toEqual([]);
    expect(attempts.events).toEqual([]);
  });
});
