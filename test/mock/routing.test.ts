import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { create, demo, errorOf, send } from '../helpers/send-to-mock.js';

describe('routing and validation', () => {
  it('answers 404 for a chat to an unknown project before reading the message', async () => {
    const mock = createMockService();
    const response = await send(mock, '/v1/projects/proj_none/chat', { method: 'POST', body: {} });

    expect(response.status).toBe(404);
  });

  it('answers 404 for an empty id segment', async () => {
    const mock = createMockService();

    expect((await send(mock, '/v1/projects//chat', { method: 'POST', body: {} })).status).toBe(404);
  });

  it('refuses a null metadata and a non-string agentId', async () => {
    const mock = createMockService();
    const response = await create(mock, { body: { name: 'Demo', agentId: 7, metadata: null } });

    expect((await errorOf(response)).message).toBe(
      'agentId: expected a non-empty string, got a number; metadata: expected a JSON object, got null',
    );
  });

  it('parses a JSON body whatever its content type says', async () => {
    const mock = createMockService();
    const response = await create(mock, { headers: { 'content-type': 'text/plain' } });

    expect(response.status).toBe(201);
  });

  it('keeps metadata as given', async () => {
    const mock = createMockService();
    const metadata = { launched: '2026-01-01', seats: 3, nested: { tags: ['a'] } };
    await create(mock, { body: { ...demo, metadata } });

    expect(mock.projects()[0]?.metadata).toEqual(metadata);
  });
});
