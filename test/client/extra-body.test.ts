/**
 * `extraBody`: a field the service accepts before this SDK knows it, sent with an operation whose
 * JSON body the SDK builds. The params stay strict; this is the explicit way past them.
 */
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

/** The issues a call is refused with; fails the test if anything is sent. */
async function refusal(call: Promise<unknown>) {
  const error = await call.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(mock.requestLog()).toHaveLength(0);
  return { message: (error as Error).message, issues: (error as RequestValidationError).issues };
}

describe('extraBody', () => {
  it('adds its fields to the body of projects.create, beside the params', async () => {
    await client().projects.create(
      { name: 'Support', agentId: 'agent_1', metadata: { tier: 2 } },
      { extraBody: { region: 'eu-west', limits: { daily: 100, tags: ['a'] } } },
    );
    expect(mock.requestLog()[0]?.body).toEqual({
      name: 'Support',
      agentId: 'agent_1',
      metadata: { tier: 2 },
      region: 'eu-west',
      limits: { daily: 100, tags: ['a'] },
    });
  });

  it('adds its fields to the body of chat.send, keeping the Idempotency-Key across retries', async () => {
    const agentchat = client();
    const { id } = await agentchat.projects.create({ name: 'P', agentId: 'agent_1' });
    mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } });
    const reply = await agentchat.chat.send(
      { projectId: id, message: 'Hi' },
      { extraBody: { tone: 'formal' } },
    );
    expect(reply.message).toBeTypeOf('string');
    const chats = mock.requestLog().slice(1);
    expect(chats.map((request) => request.body)).toEqual([
      { message: 'Hi', tone: 'formal' },
      { message: 'Hi', tone: 'formal' },
    ]);
    expect(chats[1]?.headers['idempotency-key']).toBe(chats[0]?.headers['idempotency-key']);
  });

  it('refuses a field the params name, even one left out of them', async () => {
    const { message, issues } = await refusal(
      client().projects.create(
        { name: 'Support', agentId: 'agent_1' },
        // Casts stand for JavaScript callers: the type already refuses these.
        { extraBody: { name: 'Other', metadata: {}, region: 'eu' } as never },
      ),
    );
    expect(issues).toEqual([
      { path: 'extraBody.name', message: 'belongs in the params' },
      { path: 'extraBody.metadata', message: 'belongs in the params' },
    ]);
    expect(message).toBe(
      'Invalid projects.create options: extraBody.name: belongs in the params; ' +
        'extraBody.metadata: belongs in the params. Nothing was sent.',
    );
    const chat = await refusal(
      client().chat.send(
        { projectId: 'proj_1', message: 'Hi' },
        { extraBody: { message: 'Bye' } as never },
      ),
    );
    expect(chat.issues).toEqual([{ path: 'extraBody.message', message: 'belongs in the params' }]);
  });

  it('refuses what JSON would change or drop, naming where', async () => {
    const create = (extraBody: unknown) =>
      client().projects.create({ name: 'P', agentId: 'a' }, { extraBody: extraBody as never });
    expect((await refusal(create({ at: new Date(0) }))).issues).toEqual([
      { path: 'extraBody.at', message: 'expected a JSON value, received Date instance' },
    ]);
    expect((await refusal(create({ deep: { n: Number.NaN } }))).issues).toEqual([
      { path: 'extraBody.deep.n', message: 'expected a finite number, received NaN' },
    ]);
    expect((await refusal(create({ gone: undefined }))).issues).toEqual([
      { path: 'extraBody.gone', message: 'expected a JSON value, received undefined' },
    ]);
    expect((await refusal(create(['region']))).issues).toEqual([
      { path: 'extraBody', message: 'expected a plain JSON object, received an array' },
    ]);
  });

  it('is refused where the SDK builds no JSON body: projects.get', async () => {
    const { issues } = await refusal(
      client().projects.get('proj_1', { extraBody: { expand: true } } as never),
    );
    expect(issues).toEqual([{ path: 'extraBody', message: 'is not a known field' }]);
  });

  it('leaves the body as the params make it when absent or empty', async () => {
    await client().projects.create({ name: 'P', agentId: 'a' }, { extraBody: {} });
    await client().projects.create({ name: 'Q', agentId: 'a' }, { timeout: 5_000 });
    expect(mock.requestLog().map((request) => request.body)).toEqual([
      { name: 'P', agentId: 'a' },
      { name: 'Q', agentId: 'a' },
    ]);
  });
});
