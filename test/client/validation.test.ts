import { describe, expect, it } from 'vitest';
import { type ProjectCreateParams, RequestValidationError } from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

async function rejection(promise: Promise<unknown>): Promise<RequestValidationError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

describe('input validation', () => {
  it('lists every bad field and sends nothing', async () => {
    const error = await rejection(
      client().projects.create({
        name: '',
        agentId: 42,
        metadata: [1],
        extra: true,
      } as unknown as ProjectCreateParams),
    );
    expect(error.issues).toEqual([
      { path: 'name', message: 'must not be empty' },
      { path: 'agentId', message: 'expected a string, received number' },
      { path: 'metadata', message: 'expected a plain JSON object, received an array' },
      { path: 'extra', message: 'is not a known field' },
    ]);
    expect(error.message).toMatch(
      /^Invalid projects\.create params: name: must not be empty; .* Nothing was sent\.$/,
    );
    expect(mock.requestLog()).toHaveLength(0);
  });

  it('rejects the promise rather than throwing', () => {
    const call = () => client().projects.create(undefined as unknown as ProjectCreateParams);
    expect(call).not.toThrow();
    return expect(call()).rejects.toBeInstanceOf(RequestValidationError);
  });

  it.each([
    [
      'a Date',
      { when: new Date(0) },
      'metadata.when: expected a JSON value, received Date instance',
    ],
    ['NaN', { score: Number.NaN }, 'metadata.score: expected a finite number, received NaN'],
    ['undefined', { gone: undefined }, 'metadata.gone: expected a JSON value, received undefined'],
    ['a function', { fn: () => 1 }, 'metadata.fn: expected a JSON value, received function'],
    ['a BigInt', { big: 1n }, 'metadata.big: expected a JSON value, received bigint'],
    [
      'a nested Map',
      { deep: [{ m: new Map() }] },
      'metadata.deep.0.m: expected a JSON value, received Map instance',
    ],
  ])('refuses metadata holding %s', async (_name, metadata, message) => {
    const error = await rejection(client().projects.create({ name: 'P', agentId: 'a', metadata }));
    expect(error.message).toContain(message);
    expect(mock.requestLog()).toHaveLength(0);
  });

  it('refuses circular metadata', async () => {
    const metadata: Record<string, unknown> = {};
    metadata.self = metadata;
    const error = await rejection(client().projects.create({ name: 'P', agentId: 'a', metadata }));
    expect(error.issues[0]).toEqual({
      path: 'metadata.self',
      message: 'expected a JSON value, received a circular reference',
    });
  });

  it('accepts metadata that repeats an object without a cycle', async () => {
    const shared = { a: 1 };
    await client().projects.create({ name: 'P', agentId: 'a', metadata: { x: shared, y: shared } });
    expect(mock.requestLog()[0]?.body).toEqual({
      name: 'P',
      agentId: 'a',
      metadata: { x: { a: 1 }, y: { a: 1 } },
    });
  });

  it.each(['', '.', '..'])('refuses %j as a project id', async (id) => {
    await rejection(client().projects.get(id));
    await rejection(client().chat.send({ projectId: id, message: 'hi' }));
    expect(mock.requestLog()).toHaveLength(0);
  });

  it('refuses an empty chat message and a missing projectId', async () => {
    const error = await rejection(client().chat.send({ message: '' } as never));
    expect(error.issues.map((issue) => issue.path)).toEqual(['projectId', 'message']);
  });

  it.each([
    [{ timeout: -5 }, 'timeout'],
    [{ maxRetries: 'many' }, 'maxRetries'],
    [{ signal: {} }, 'signal'],
    [{ idempotencyKey: '' }, 'idempotencyKey'],
    [{ headers: { 'x-n': 1 } }, 'headers.x-n'],
    [{ headers: { 'x-n': 'a\r\nInjected: 1' } }, 'headers.x-n'],
    [{ headers: { 'x n': 'a' } }, 'headers.x n'],
    [{ retries: 3 }, 'retries'],
  ])('refuses request options %o', async (options, path) => {
    const error = await rejection(client().projects.get('proj_1', options as never));
    expect(error.issues.map((issue) => issue.path)).toEqual([path]);
    expect(mock.requestLog()).toHaveLength(0);
  });
});
