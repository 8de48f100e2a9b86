import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/index.js';
import { API_KEY, useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

describe('round trip', () => {
  it('creates a project, reads it back and chats with its agent', async () => {
    const agentchat = client();
    const created = await agentchat.projects.create({
      name: 'Support desk',
      agentId: 'agent_support',
      metadata: { launchDate: '2026-12-01', tier: 2 },
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^proj_/),
      name: 'Support desk',
      status: 'active',
      createdAt: expect.any(String),
    });
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    const project = await agentchat.projects.get(created.id);
    expect(project).toEqual({
      ...created,
      agentId: 'agent_support',
      metadata: { launchDate: '2026-12-01', tier: 2 },
    });

    const reply = await agentchat.chat.send({ projectId: created.id, message: 'What can you do?' });
    expect(reply.message).toContain('agent_support');
    expect(reply.suggestions.length).toBeGreaterThan(0);
  });

  it('reads metadata omitted at creation as an empty object', async () => {
    const agentchat = client();
    const { id } = await agentchat.projects.create({ name: 'Bare', agentId: 'agent_1' });
    expect((await agentchat.projects.get(id)).metadata).toEqual({});
  });
});

describe('wire format', () => {
  it('sends create to baseUrl + /v1/projects with the bearer key and exactly the given body', async () => {
    await client().projects.create({ name: 'P', agentId: 'agent_1' });
    const [request] = mock.requestLog();
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('https://agentchat.test/api/v1/projects');
    expect(request?.body).toEqual({ name: 'P', agentId: 'agent_1' });
    expect(request?.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': `agentchat-js/${VERSION}`,
      'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('puts projectId in the chat path and only the message in its body', async () => {
    const agentchat = client();
    const { id } = await agentchat.projects.create({ name: 'P', agentId: 'agent_1' });
    await agentchat.chat.send({ projectId: id, message: 'Hi' });
    const chat = mock.requestLog().at(-1);
    expect(chat?.url).toBe(`https://agentchat.test/api/v1/projects/${id}/chat`);
    expect(chat?.body).toEqual({ message: 'Hi' });
  });

  it('sends get without a body, content type or Idempotency-Key', async () => {
    const agentchat = client();
    const { id } = await agentchat.projects.create({ name: 'P', agentId: 'agent_1' });
    await agentchat.projects.get(id);
    const get = mock.requestLog().at(-1);
    expect(get?.method).toBe('GET');
    expect(get?.body).toBeUndefined();
    expect(get?.headers['content-type']).toBeUndefined();
    expect(get?.headers['idempotency-key']).toBeUndefined();
  });

  it('tolerates a trailing slash on baseUrl', async () => {
    await client({ baseUrl: `${mock.baseUrl}/` }).projects.create({ name: 'P', agentId: 'a' });
    expect(mock.requestLog()[0]?.url).toBe('https://agentchat.test/api/v1/projects');
  });

  it('sends default and per-request headers, the per-request ones winning', async () => {
    await client({ headers: { 'x-team': 'a', 'x-trace': 'client' } }).projects.create(
      { name: 'P', agentId: 'a' },
      { headers: { 'x-trace': 'call' } },
    );
    expect(mock.requestLog()[0]?.headers).toMatchObject({ 'x-team': 'a', 'x-trace': 'call' });
  });

  it('percent-encodes an id as one path segment', async () => {
    await expect(client().projects.get('a/../b?c#d%e')).rejects.toMatchObject({ status: 404 });
    expect(mock.requestLog()[0]?.path).toBe('/api/v1/projects/a%2F..%2Fb%3Fc%23d%25e');
  });
});

describe('responses', () => {
  it('keeps fields the service adds and accepts a new status and any suggestion shape', async () => {
    mock.enqueue({
      kind: 'status',
      status: 200,
      body: { message: 'ok', suggestions: [{ text: 'a', score: 1 }, 'b', 3], mood: 'happy' },
    });
    const reply = await client().chat.send({ projectId: 'proj_1', message: 'Hi' });
    expect(reply).toEqual({
      message: 'ok',
      suggestions: [{ text: 'a', score: 1 }, 'b', 3],
      mood: 'happy',
    });

    mock.enqueue({
      kind: 'status',
      status: 200,
      body: {
        id: 'proj_1',
        name: 'P',
        agentId: 'a',
        status: 'archived',
        metadata: null,
        createdAt: 'now',
        owner: 'x',
      },
    });
    const project = await client().projects.get('proj_1');
    expect(project).toMatchObject({ status: 'archived', metadata: {}, owner: 'x' });
  });

  it('offers the raw response and request id through withResponse()', async () => {
    const { data, response, requestId } = await client()
      .projects.create({ name: 'P', agentId: 'a' })
      .withResponse();
    expect(response.status).toBe(201);
    expect(data.name).toBe('P');
    expect(requestId).toMatch(/^req_/);
    expect(requestId).toBe(response.headers.get('x-request-id'));
  });
});

describe('headers', () => {
  it('lets a caller header replace ours whatever its case, but keeps the JSON content type', async () => {
    await client({ headers: { 'User-Agent': 'my-app/2.0' } }).projects.create(
      { name: 'P', agentId: 'a' },
      { headers: { 'Content-Type': 'text/plain', ACCEPT: 'application/json; q=1' } },
    );
    expect(mock.requestLog()[0]?.headers).toMatchObject({
      'user-agent': 'my-app/2.0',
      'content-type': 'application/json',
      accept: 'application/json; q=1',
    });
  });
});

describe('withResponse', () => {
  it('gives the response whose body was read, with text() and json() giving it again', async () => {
    const { data, response } = await client()
      .projects.create({ name: 'Read twice', agentId: 'a' })
      .withResponse();
    expect(response.url).toBe(`${mock.baseUrl}/v1/projects`);
    expect(await response.json()).toEqual(data);
    expect(JSON.parse(await response.text())).toEqual(data);
  });
});
