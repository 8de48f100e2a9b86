import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { create, demo, send } from '../helpers/send-to-mock.js';

describe('request log', () => {
  it('gives each entry the request id of its answer', async () => {
    const mock = createMockService();
    const answers = [await create(mock), await send(mock, '/v1/nowhere')];

    expect(mock.requestLog().map((request) => request.requestId)).toEqual(
      answers.map((answer) => answer.headers.get('x-request-id')),
    );
  });

  it('logs a body that is not JSON as text, and an empty one as undefined', async () => {
    const mock = createMockService();
    await create(mock, { raw: 'name=Demo' });
    await send(mock, '/v1/projects', { method: 'POST', raw: '' });

    expect(mock.requestLog().map((request) => request.body)).toEqual(['name=Demo', undefined]);
  });

  it('returns a snapshot that later requests do not change', async () => {
    const mock = createMockService();
    const before = mock.requestLog();
    await create(mock);

    expect(before).toEqual([]);
    expect(mock.requestLog()).toHaveLength(1);
  });
});

describe('projects()', () => {
  it('returns copies that cannot change the store', async () => {
    const mock = createMockService();
    await create(mock, { body: { ...demo, metadata: { seats: 1 } } });

    const [copy] = mock.projects();
    if (copy) copy.metadata.seats = 99;
    expect(mock.projects()[0]?.metadata).toEqual({ seats: 1 });
  });
});
