/**
 * What the mock holds, whatever it is sent: request bodies capped (413), the request log and the
 * Idempotency-Key records bounded, the built-in agent's quote cut. In process, through msw's
 * handlers; test/reliability/hostile-clients.test.ts proves the same of agentchat-mock as a
 * process, its memory read from outside.
 */
import { describe, expect, it } from 'vitest';
import { APIError, ConfigurationError } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { create, errorOf, send } from '../helpers/send-to-mock.js';
import { useMockService } from '../helpers/use-mock-service.js';

/** A body of `length` bytes, sent as a stream: no Content-Length says how long it is. */
function streamed(length: number): ReadableStream<Uint8Array> {
  let left = length;
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(left, 64 * 1024);
      if (size === 0) return controller.close();
      left -= size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
}

describe('maxRequestBytes', () => {
  it('answers a body over the limit 413, logged, with the option to raise it named', async () => {
    const mock = createMockService({ maxRequestBytes: 1024 });

    const response = await create(mock, { raw: JSON.stringify({ name: 'x'.repeat(2000) }) });

    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatchObject({
      type: 'request_too_large_error',
      message: expect.stringContaining('maxRequestBytes'),
    });
    expect(mock.requestLog()).toEqual([
      expect.objectContaining({ status: 413, body: undefined, path: '/api/v1/projects' }),
    ]);
    expect(mock.projects()).toEqual([]);
  });

  it('stops reading a streamed body where it passes the limit', async () => {
    const mock = createMockService({ maxRequestBytes: 256 * 1024 });
    let pulled = 0;
    const body = streamed(64 * 1024 * 1024).pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const request = new Request(`${mock.baseUrl}/v1/projects`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_unit' },
      body,
      duplex: 'half',
    } as RequestInit);

    const response = await (await import('msw')).getResponse([...mock.handlers], request);

    expect(response?.status).toBe(413);
    expect(pulled).toBeLessThan(1024 * 1024);
  });

  it('takes a body exactly at the limit', async () => {
    const body = JSON.stringify({ name: 'Demo', agentId: 'agent_1' });
    const mock = createMockService({ maxRequestBytes: body.length });

    expect((await create(mock, { raw: body })).status).toBe(201);
  });

  it('answers 413 before a queued fault, which then answers the next request', async () => {
    const mock = createMockService({ maxRequestBytes: 1024 });
    mock.enqueue({ kind: 'status', status: 503 });

    const first = await create(mock, { raw: 'x'.repeat(2048) });
    const second = await create(mock);

    expect([first.status, second.status]).toEqual([413, 503]);
    expect(mock.requestLog().map((request) => request.fault)).toEqual([undefined, 'status']);
  });

  it('refuses a limit that is not a positive whole number', () => {
    expect(() => createMockService({ maxRequestBytes: 0 })).toThrow(ConfigurationError);
    expect(() => createMockService({ requestLogLimit: 1.5 })).toThrow(
      'requestLogLimit must be a whole number of requests > 0, got 1.5',
    );
  });
});

describe('a client sending a 10 MB chat message', () => {
  const { mock, client } = useMockService();

  it('gets 413, not the message echoed back', async () => {
    const project = await client().projects.create({ name: 'Demo', agentId: 'agent_1' });

    const error = await client()
      .chat.send({ projectId: project.id, message: 'x'.repeat(10_000_000) })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(413);
    expect(mock.requestLog().at(-1)?.status).toBe(413);
  });
});

describe('requestLogLimit', () => {
  it('keeps the latest requests only, and still counts every token request', async () => {
    const mock = createMockService({ requestLogLimit: 3 });
    for (let i = 0; i < 5; i++) {
      await send(mock, '/oauth/token', {
        method: 'POST',
        raw: `grant_type=client_credentials&client_id=c${i}&client_secret=s`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        authorization: null,
      });
    }
    await send(mock, '/v1/projects/proj_1');

    expect(mock.requestLog().map((request) => request.path.split('/').pop())).toEqual([
      'token',
      'token',
      'proj_1',
    ]);
    expect(mock.oauth.tokenRequests()).toBe(5);
    mock.reset();
    expect(mock.requestLog()).toEqual([]);
    expect(mock.oauth.tokenRequests()).toBe(0);
  });

  it('keeps a body over 16 KiB as its first 16 KiB of text, marked', async () => {
    const mock = createMockService();
    const name = 'n'.repeat(20_000);
    await create(mock, { body: { name, agentId: 'agent_1' } });
    await create(mock);

    const [long, short] = mock.requestLog();
    expect(long?.bodyTruncated).toBe(true);
    expect(long?.body).toBe(JSON.stringify({ name, agentId: 'agent_1' }).slice(0, 16_384));
    expect(short?.bodyTruncated).toBeUndefined();
    expect(short?.body).toEqual({ name: 'Demo', agentId: 'agent_1' });
  });
});

describe('Idempotency-Key records', () => {
  it('forget the oldest answers past 16 MiB of them: a repeat of its key is answered afresh', async () => {
    const mock = createMockService();
    const { id } = (await (await create(mock)).json()) as { id: string };
    // Answers of 6 MiB each: the third pushes the first out.
    mock.override('chat.send', () => ({ message: 'a'.repeat(6 * 1024 * 1024), suggestions: [] }));
    const chat = (key: string) =>
      send(mock, `/v1/projects/${id}/chat`, {
        method: 'POST',
        body: { message: 'Hi' },
        headers: { 'idempotency-key': key },
      });
    for (const key of ['k1', 'k2', 'k3']) await (await chat(key)).arrayBuffer();

    const [first, third] = [await chat('k1'), await chat('k3')];

    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(((await third.json()) as { message: string }).message).toHaveLength(6 * 1024 * 1024);
  });
});

describe('the built-in agent', () => {
  it('quotes at most 1,000 characters of a message', async () => {
    const mock = createMockService();
    const { id } = (await (await create(mock)).json()) as { id: string };

    const response = await send(mock, `/v1/projects/${id}/chat`, {
      method: 'POST',
      body: { message: 'x'.repeat(100_000) },
    });

    const { message } = (await response.json()) as { message: string };
    expect(message).toContain(`"${'x'.repeat(999)}…"`);
    expect(message.length).toBeLessThan(1_200);
  });
});
