import { afterEach, expect, it } from 'vitest';
import { APIConnectionError, Client, InternalServerError } from '../../src/index.js';
import type { MockAgent, MockService, MockServiceOptions } from '../../src/testing/index.js';

/** The key the test kit's service accepts. */
const KIT_API_KEY = 'sk_test_kit';

/** One seed with every field given, one with only the required ones. */
export const KIT_SEEDS = [
  {
    id: 'proj_support',
    name: 'Support',
    agentId: 'agent_support',
    metadata: { tier: 'gold' },
    status: 'active',
    createdAt: '2026-01-31T09:30:00Z',
  },
  { name: 'Sales', agentId: 'agent_sales', status: 'paused' },
] as const;

/**
 * Answers from what it is given, so a scenario can see each part arrive; two messages make it
 * break the two ways a test's agent can.
 */
const scriptedAgent: MockAgent = async ({ project, message, request }) => {
  if (message === 'answer off schema') return { message: 42 } as never;
  if (message === 'throw') throw new Error('the agent fell over');
  const sent = (await request.json()) as { message: string };
  return {
    message: `${project.name} (${project.agentId}) heard "${message}"`,
    suggestions: [`body said ${sent.message}`, `tier ${String(project.metadata.tier)}`],
  };
};

/** What every runner creates its test-kit service with. */
export const KIT_OPTIONS = {
  apiKeys: [KIT_API_KEY],
  projects: [...KIT_SEEDS],
  agent: scriptedAgent,
} satisfies MockServiceOptions;

/**
 * Registers the test kit's behaviour (seeds, a scripted agent, overrides) that every way of
 * running the mock must share, seen through the SDK's client as a user's test sees it. Call
 * inside a `describe` whose hooks start a service made with {@link KIT_OPTIONS}.
 */
export function registerTestKitScenarios(service: () => MockService): void {
  const mock = () => service();
  // No retries: a 500 from a broken script must reach the test at once, with its message.
  const client = () =>
    new Client({
      apiKey: KIT_API_KEY,
      baseUrl: mock().baseUrl,
      maxRetries: 0,
      dangerouslyAllowBrowser: true,
    });

  afterEach(() => mock().reset());

  it('holds the seeded projects before any request, as given or completed', async () => {
    expect(await client().projects.get('proj_support')).toEqual({
      id: 'proj_support',
      name: 'Support',
      agentId: 'agent_support',
      status: 'active',
      metadata: { tier: 'gold' },
      createdAt: '2026-01-31T09:30:00Z',
    });
    const [, sales] = mock().projects();
    expect(sales).toEqual({
      id: expect.stringMatching(/^proj_[A-Za-z0-9]+$/),
      name: 'Sales',
      agentId: 'agent_sales',
      status: 'paused',
      metadata: {},
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(await client().projects.get(sales?.id ?? '')).toEqual(sales);
  });

  it('restores the seed on reset(), generated ids included, not an empty store', async () => {
    const seeded = mock().projects();
    await client().projects.create({ name: 'Extra', agentId: 'agent_1' });
    mock().override('projects.get', () => ({ kind: 'status', status: 503 }));

    mock().reset();

    expect(mock().projects()).toEqual(seeded);
    expect((await client().projects.get('proj_support')).name).toBe('Support');
  });

  it('answers chat with the scripted agent, given the project, the message and the request', async () => {
    const reply = await client().chat.send({
      projectId: 'proj_support',
      message: 'Where is my order?',
    });

    expect(reply).toEqual({
      message: 'Support (agent_support) heard "Where is my order?"',
      suggestions: ['body said Where is my order?', 'tier gold'],
    });
  });

  it('answers a scripted reply off the chat schema as a 500 that says what is wrong', async () => {
    const failure = client().chat.send({ projectId: 'proj_support', message: 'answer off schema' });

    await expect(failure).rejects.toBeInstanceOf(InternalServerError);
    await expect(failure).rejects.toThrow(
      'not a chat reply: reply.message: expected a string, got a number; reply.suggestions: expected an array, got nothing',
    );
    expect(mock().requestLog().at(-1)?.status).toBe(500);
  });

  it('answers a scripted agent that throws as a 500 naming its error', async () => {
    await expect(
      client().chat.send({ projectId: 'proj_support', message: 'throw' }),
    ).rejects.toThrow("The mock's scripted agent threw: the agent fell over");
  });

  it('overrides an operation with a typed body until reset(), given params, project and request', async () => {
    const seen: unknown[] = [];
    mock().override('projects.get', async ({ params, project, request }) => {
      seen.push({ params, name: project?.name, method: request.method });
      return { ...(project ?? KIT_SEEDS[0]), metadata: {}, status: 'archived' };
    });

    expect((await client().projects.get('proj_support')).status).toBe('archived');
    expect((await client().projects.get('proj_support')).status).toBe('archived');
    expect(seen).toEqual([
      { params: { id: 'proj_support' }, name: 'Support', method: 'GET' },
      { params: { id: 'proj_support' }, name: 'Support', method: 'GET' },
    ]);
    mock().reset();
    expect((await client().projects.get('proj_support')).status).toBe('active');
  });

  it('answers a one-time override once, before a standing one, then the service again', async () => {
    mock().override('chat.send', () => ({ message: 'standing', suggestions: [] }));
    mock().override('chat.send', () => ({ message: 'once', suggestions: [] }), { once: true });
    const send = async () =>
      (await client().chat.send({ projectId: 'proj_support', message: 'Hi' })).message;

    expect([await send(), await send()]).toEqual(['once', 'standing']);
    mock().reset();
    mock().override('chat.send', () => ({ message: 'once', suggestions: [] }), { once: true });
    expect([await send(), await send()]).toEqual(['once', 'Support (agent_support) heard "Hi"']);
  });

  it('answers a fault from an override, logged as that fault', async () => {
    mock().override(
      'projects.get',
      () => ({ kind: 'status', status: 503, headers: { 'retry-after': '0' } }),
      { once: true },
    );
    mock().override('projects.get', () => ({ kind: 'network-error' }), { once: true });

    await expect(client().projects.get('proj_support')).rejects.toBeInstanceOf(InternalServerError);
    await expect(client().projects.get('proj_support')).rejects.toBeInstanceOf(APIConnectionError);
    expect((await client().projects.get('proj_support')).name).toBe('Support');
    expect(
      mock()
        .requestLog()
        .map((request) => request.fault),
    ).toEqual(['status', 'network-error', undefined]);
  });

  it('spends a one-time override on a request the service answers, not on an idempotent replay', async () => {
    const params = { name: 'Keyed', agentId: 'agent_1' };
    const first = await client().projects.create(params, { idempotencyKey: 'kit-key' });
    mock().override('projects.create', () => ({ kind: 'status', status: 503 }), { once: true });

    expect(await client().projects.create(params, { idempotencyKey: 'kit-key' })).toEqual(first);
    await expect(
      client().projects.create(params, { idempotencyKey: 'kit-other-key' }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(
      mock()
        .requestLog()
        .map((request) => request.status),
    ).toEqual([201, 201, 503]);
  });

  it('stores the project a create override answers, so it can be read back', async () => {
    mock().override('projects.create', () => ({
      id: 'proj_fixed',
      name: 'Fixed',
      status: 'active',
      createdAt: '2026-02-01T00:00:00Z',
    }));

    const created = await client().projects.create({
      name: 'Ignored',
      agentId: 'agent_x',
      metadata: { from: 'request' },
    });

    expect(created).toEqual({
      id: 'proj_fixed',
      name: 'Fixed',
      status: 'active',
      createdAt: '2026-02-01T00:00:00Z',
    });
    expect(await client().projects.get('proj_fixed')).toEqual({
      ...created,
      agentId: 'agent_x',
      metadata: { from: 'request' },
    });
  });

  it('answers an override whose body is off the response shape as a 500 that says why', async () => {
    mock().override('projects.get', () => ({ id: 'nope', name: 'X' }) as never);

    await expect(client().projects.get('proj_support')).rejects.toThrow(
      'projects.get override answered a body off the service\'s response: projects.get override body.id: expected an id such as "proj_123", got a string',
    );
  });
}
