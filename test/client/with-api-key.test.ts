/**
 * The internal way agentchat/mcp over HTTP calls the service with each caller's key: a client's
 * operations with another fixed key, sharing the client's options and ky instance.
 */
import ky from 'ky';
import { describe, expect, it, vi } from 'vitest';
import * as publicApi from '../../src/index.js';
import { APIError, type Client } from '../../src/index.js';
import { leaksOf } from '../helpers/reliability.js';
import { API_KEY, useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();
const OTHER_KEY = 'sk_caller_6e2b90d14a';
/** The method agentchat/mcp calls, by the registered symbol it is keyed by. */
const withApiKey = Symbol.for('agentchat.forRequest');

function operationsOf(base: Client, apiKey: string): Pick<Client, 'projects' | 'chat'> {
  return (base as unknown as Record<symbol, (key: string) => Pick<Client, 'projects' | 'chat'>>)[
    withApiKey
  ]?.(apiKey) as Pick<Client, 'projects' | 'chat'>;
}

describe("a client's operations with another key", () => {
  it('send that key, while the client keeps sending its own', async () => {
    const base = client();
    const operations = operationsOf(base, OTHER_KEY);

    const { id } = await operations.projects.create({ name: 'Caller', agentId: 'agent_1' });
    await operations.chat.send({ projectId: id, message: 'Hello' });
    await base.projects.get(id);

    expect(mock.requestLog().map((request) => request.headers.authorization)).toEqual([
      `Bearer ${OTHER_KEY}`,
      `Bearer ${OTHER_KEY}`,
      `Bearer ${API_KEY}`,
    ]);
  });

  it("keep the client's headers, retries and middleware", async () => {
    const seen: string[] = [];
    const base = client({
      headers: { 'x-tenant': 'acme' },
      maxRetries: 1,
      middleware: [
        async (request, next) => {
          seen.push(request.headers.get('authorization') ?? '');
          return next(request);
        },
      ],
    });
    mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });

    await operationsOf(base, OTHER_KEY)
      .projects.get('proj_1')
      .catch(() => undefined);

    expect(mock.requestLog().map((request) => request.status)).toEqual([503, 404]);
    expect(mock.requestLog().every((request) => request.headers['x-tenant'] === 'acme')).toBe(true);
    expect(seen).toEqual([`Bearer ${OTHER_KEY}`, `Bearer ${OTHER_KEY}`]);
  });

  it('send their key on every retry of a client whose key is a function', async () => {
    const base = client({ apiKey: async () => 'sk_from_function', maxRetries: 1 });
    mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });

    await operationsOf(base, OTHER_KEY)
      .projects.get('proj_1')
      .catch(() => undefined);

    expect(mock.requestLog().map((request) => request.headers.authorization)).toEqual([
      `Bearer ${OTHER_KEY}`,
      `Bearer ${OTHER_KEY}`,
    ]);
  });

  it('keep their key out of errors, as the client does its own', async () => {
    mock.enqueue({
      kind: 'status',
      status: 401,
      body: { error: { type: 'authentication_error', message: `unknown key ${OTHER_KEY}` } },
    });

    const error = await operationsOf(client({ maxRetries: 0 }), OTHER_KEY)
      .projects.get('proj_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(APIError);
    expect(leaksOf(error, OTHER_KEY)).toEqual([]);
  });

  it('make no ky instance of their own: the one of the client serves them all', async () => {
    const base = client();
    const create = vi.spyOn(ky, 'create');
    try {
      const operations = Array.from({ length: 20 }, (_, i) => operationsOf(base, `sk_${i}`));
      await operations[7]?.projects.get('proj_1').catch(() => undefined);
      expect(create).not.toHaveBeenCalled();
      // The spy does see a client being made, which makes one.
      client();
      expect(create).toHaveBeenCalledTimes(1);
    } finally {
      create.mockRestore();
    }
    expect(mock.requestLog().map((request) => request.headers.authorization)).toEqual([
      'Bearer sk_7',
    ]);
  });

  it('are not part of the public API', () => {
    expect(Object.keys(publicApi)).not.toContain('forRequest');
    expect(Object.keys(client())).not.toContain('forRequest');
  });

  it("tell middleware the caller, with the client's own key when none is given", async () => {
    const seen: unknown[] = [];
    const base = client({
      middleware: [
        (request, next, context) => {
          seen.push(context.caller);
          return next(request);
        },
      ],
    });
    const caller = { subject: 'user_7', clientId: 'ide-agent', scopes: ['agentchat:read'] };
    const forCaller = (
      base as unknown as Record<
        symbol,
        (key: undefined, who: typeof caller) => Pick<Client, 'projects' | 'chat'>
      >
    )[withApiKey]?.(undefined, caller) as Pick<Client, 'projects' | 'chat'>;

    const { id } = await forCaller.projects.create({ name: 'For a caller', agentId: 'agent_1' });
    await base.projects.get(id);

    expect(seen).toEqual([caller, undefined]);
    expect(mock.requestLog().map((request) => request.headers.authorization)).toEqual([
      `Bearer ${API_KEY}`,
      `Bearer ${API_KEY}`,
    ]);
  });
});
