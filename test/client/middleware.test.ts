import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AgentChatError,
  APIConnectionError,
  type Middleware,
  type MiddlewareContext,
  NotFoundError,
} from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs a call to completion under fake timers (backoffs cost nothing). */
async function settle<T>(call: Promise<T>): Promise<T | unknown> {
  const outcome = call.catch((error: unknown) => error);
  await vi.runAllTimersAsync();
  return outcome;
}

/** A middleware that records what it is told, and passes the request on. */
function recorder() {
  const seen: { context: MiddlewareContext; request: Request; status?: number }[] = [];
  const middleware: Middleware = async (request, next, context) => {
    const entry: (typeof seen)[number] = { context, request };
    seen.push(entry);
    const response = await next(request);
    entry.status = response.status;
    return response;
  };
  return { seen, middleware };
}

describe('middleware', () => {
  it('runs around every attempt, each retry seen as its own', async () => {
    const { seen, middleware } = recorder();
    mock.enqueue({ kind: 'status', status: 503 }, { kind: 'network-error' });
    const project = await settle(
      client({ middleware: [middleware] }).projects.create({ name: 'P', agentId: 'a' }),
    );
    expect(project).toMatchObject({ name: 'P' });
    expect(seen.map(({ context }) => context.attempt)).toEqual([0, 1, 2]);
    expect(seen.map(({ status }) => status)).toEqual([503, undefined, 201]);
    const [first] = seen;
    expect(first?.context).toMatchObject({ operation: 'projects.create', maxRetries: 2 });
    expect(first?.context.signal).toBeInstanceOf(AbortSignal);
    // One key for the whole call, on the request and in the context alike.
    const keys = seen.map(({ context }) => context.idempotencyKey);
    expect(new Set(keys).size).toBe(1);
    expect(seen[2]?.request.headers.get('idempotency-key')).toBe(keys[0]);
  });

  it('tells a GET it has no Idempotency-Key, and shows the Authorization it sends', async () => {
    const { seen, middleware } = recorder();
    await client({ middleware: [middleware] }).projects.get(
      (await client().projects.create({ name: 'P', agentId: 'a' })).id,
    );
    expect(seen[0]?.context).toMatchObject({
      operation: 'projects.get',
      idempotencyKey: undefined,
    });
    expect(seen[0]?.request.headers.get('authorization')).toMatch(/^Bearer sk_test_/);
  });

  it('runs the client’s in order, then the call’s inside them', async () => {
    const order: string[] = [];
    const named =
      (name: string): Middleware =>
      async (request, next) => {
        order.push(`${name} in`);
        const response = await next(request);
        order.push(`${name} out`);
        return response;
      };
    await client({ middleware: [named('a'), named('b')] }).projects.create(
      { name: 'P', agentId: 'a' },
      { middleware: [named('call')] },
    );
    expect(order).toEqual(['a in', 'b in', 'call in', 'call out', 'b out', 'a out']);
  });

  it('may replace the request', async () => {
    const tag: Middleware = (request, next) => {
      const tagged = new Request(request);
      tagged.headers.set('x-trace-id', 'trace-1');
      return next(tagged);
    };
    await client({ middleware: [tag] }).projects.create({ name: 'P', agentId: 'a' });
    expect(mock.requestLog()[0]?.headers['x-trace-id']).toBe('trace-1');
  });

  it('may answer in place of the service, and the answer is read like the service’s', async () => {
    const double: Middleware = async () =>
      Response.json(
        { message: 'canned', suggestions: ['a'] },
        { headers: { 'x-request-id': 'req_d' } },
      );
    const { data, requestId } = await client({ middleware: [double] })
      .chat.send({ projectId: 'proj_1', message: 'hi' })
      .withResponse();
    expect(data).toEqual({ message: 'canned', suggestions: ['a'] });
    expect(requestId).toBe('req_d');
    expect(mock.requestLog()).toEqual([]);
  });

  it('may replace the response, whose status then decides', async () => {
    const notFound: Middleware = async (request, next) => {
      await next(request);
      return Response.json({ error: { message: 'hidden' } }, { status: 404 });
    };
    const error = await client({ middleware: [notFound] })
      .projects.create({ name: 'P', agentId: 'a' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain('hidden');
  });

  it('ends the call unretried with an error of its own, wrapped with it as cause', async () => {
    const boom = new Error('tracing backend down');
    let runs = 0;
    const failing: Middleware = async () => {
      runs++;
      throw boom;
    };
    const error = await settle(client({ middleware: [failing] }).projects.get('proj_1'));
    expect(error).toBeInstanceOf(AgentChatError);
    expect((error as Error).message).toBe(
      'GET /v1/projects/proj_1: a middleware failed: tracing backend down',
    );
    expect((error as Error).cause).toBe(boom);
    expect(runs).toBe(1);
  });

  it('ends the call unretried when it reads the body itself, saying to read a clone', async () => {
    let runs = 0;
    const greedy: Middleware = async (request, next) => {
      runs++;
      const response = await next(request);
      await response.text();
      return response;
    };
    const error = await settle(
      client({ middleware: [greedy] }).projects.create({ name: 'P', agentId: 'a' }),
    );
    expect(error).toBeInstanceOf(AgentChatError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'POST /v1/projects: a middleware failed: a middleware read the response body; read a clone instead',
    );
    expect(runs).toBe(1);
  });

  it('ends the call unretried with an AgentChatError of its own, as it is', async () => {
    let runs = 0;
    const own = new APIConnectionError({ method: 'GET', path: '/v1/projects/p' }, undefined);
    const failing: Middleware = async () => {
      runs++;
      throw own;
    };
    const error = await settle(client({ middleware: [failing] }).projects.get('proj_1'));
    expect(error).toBe(own);
    expect(runs).toBe(1);
    expect(mock.requestLog()).toEqual([]);
  });

  it('sees the connection failure fetch threw, which is then retried as usual', async () => {
    const errors: unknown[] = [];
    const watch: Middleware = async (request, next) => {
      try {
        return await next(request);
      } catch (error) {
        errors.push(error);
        throw error;
      }
    };
    mock.enqueue({ kind: 'network-error' });
    const project = await settle(
      client({ middleware: [watch] }).projects.create({ name: 'P', agentId: 'a' }),
    );
    expect(project).toMatchObject({ name: 'P' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  it('counts the replay after a 401 as an attempt', async () => {
    const { seen, middleware } = recorder();
    mock.enqueue({ kind: 'status', status: 401 });
    let issued = 0;
    const apiKey = () => `sk_test_token_${++issued}`;
    await client({ apiKey, middleware: [middleware] }).projects.create({ name: 'P', agentId: 'a' });
    expect(seen.map(({ context, status }) => [context.attempt, status])).toEqual([
      [0, 401],
      [1, 201],
    ]);
    expect(seen[1]?.request.headers.get('authorization')).toBe('Bearer sk_test_token_2');
  });

  it('is refused when it is not a function, before anything is sent', async () => {
    expect(() => client({ middleware: ['log' as never] })).toThrow(
      /middleware\.0: expected a function/,
    );
    const error = await client()
      .projects.get('proj_1', { middleware: [{} as never] })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/middleware\.0: expected a function/);
    expect(mock.requestLog()).toEqual([]);
  });
});
