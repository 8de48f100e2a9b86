import { describe, expect, it } from 'vitest';
import { AgentChatError, Client, NotFoundError } from '../../src/index.js';
import { API_KEY, useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

describe('asResponse()', () => {
  it('gives the raw response of a success with its body unread, for the caller to read', async () => {
    const response = await client().projects.create({ name: 'Raw', agentId: 'a' }).asResponse();
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await response.json()) as { id: string; name: string };
    expect(body).toMatchObject({ id: expect.stringMatching(/^proj_/), name: 'Raw' });
    expect(mock.projects().map((project) => project.id)).toEqual([body.id]);
  });

  it('neither limits nor validates the body: it is the caller’s to read', async () => {
    const body = { id: 'proj_1', unexpected: 'x'.repeat(5_000) };
    mock.enqueue({ kind: 'status', status: 200, body });
    const response = await client({ maxResponseBytes: 1_024 }).projects.get('proj_1').asResponse();
    expect(await response.json()).toEqual(body);
  });

  it('leaves the data promise rejecting with a message that says where the body went', async () => {
    const call = client().projects.create({ name: 'Raw', agentId: 'a' });
    await call.asResponse();
    await expect(call).rejects.toThrow(AgentChatError);
    await expect(call).rejects.toThrow(/handed over unread by asResponse\(\)/);
    await expect(call.withResponse()).rejects.toThrow(/handed over unread/);
  });

  it('throws a failure as awaiting the call would, after the usual retries', async () => {
    await expect(client().projects.get('proj_missing').asResponse()).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const { id } = await client().projects.create({ name: 'P', agentId: 'a' });
    mock.enqueue({ kind: 'status', status: 500 });
    const response = await client({ maxRetries: 1 }).projects.get(id).asResponse();
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(id);
  });

  it('resolves once the headers are in, before the body has arrived', async () => {
    let sendRest: (() => void) | undefined;
    const fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"id":"proj_1",'));
            sendRest = () => {
              controller.enqueue(new TextEncoder().encode('"name":"Streamed"}'));
              controller.close();
            };
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const streaming = new Client({ apiKey: API_KEY, baseUrl: mock.baseUrl, fetch });
    const response = await streaming.projects.get('proj_1').asResponse();
    // The body is still open: the call did not wait for it.
    expect(sendRest).toBeTypeOf('function');
    const text = response.text();
    sendRest?.();
    expect(JSON.parse(await text)).toEqual({ id: 'proj_1', name: 'Streamed' });
  });

  it('asked once the answer is in, gives the response read, its text() giving the body again', async () => {
    const call = client().projects.create({ name: 'Late', agentId: 'a' });
    const project = await call;
    const response = await call.asResponse();
    expect(response.status).toBe(201);
    expect(JSON.parse(await response.text())).toEqual(project);
  });
});
