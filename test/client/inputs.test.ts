/**
 * Standard inputs the client takes as other libraries hand them out: headers in every form fetch
 * takes (`HeadersInit`), with `null` to leave a header out of one call; `signal: null`; metadata
 * typed by an interface. Each goes through the client to the mock service, which records what
 * arrived.
 */
import { describe, expect, it } from 'vitest';
import { type Client, type HttpMethod, RequestValidationError } from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService();

/** Reads a project that does not exist: the mock answers 404, and records the request. */
const read = (agentchat: Client, options?: object) =>
  agentchat.projects.get('proj_1', options).catch(() => undefined);
const get = (options: object) => read(client(), options);
const rejection = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail('the call should have been refused'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(RequestValidationError);
      return error as RequestValidationError;
    },
  );

describe('headers of one call', () => {
  it.each([
    ['a Headers object', new Headers({ 'X-Trace': 'abc', 'x-tenant': 'acme' })],
    [
      'an array of pairs',
      [
        ['X-Trace', 'abc'],
        ['x-tenant', 'acme'],
      ],
    ],
    ['an object', { 'X-Trace': 'abc', 'x-tenant': 'acme' }],
  ])('are taken as %s', async (_form, headers) => {
    await get({ headers });
    expect(mock.requestLog()[0]?.headers).toMatchObject({ 'x-trace': 'abc', 'x-tenant': 'acme' });
  });

  it('take a list as a value, sent joined by ", " as fetch does', async () => {
    await get({ headers: { 'x-tenant': ['a', 'b'] } });
    expect(mock.requestLog()[0]?.headers['x-tenant']).toBe('a, b');
  });

  it('leave out a header of the client given null or undefined, whatever its case', async () => {
    const agentchat = client({ headers: { 'x-team': 'a', 'x-trace': 'client', 'x-keep': 'k' } });
    await agentchat.projects.create(
      { name: 'P', agentId: 'a' },
      { headers: { 'X-Team': null, 'x-trace': undefined } },
    );
    await agentchat.projects.create({ name: 'P', agentId: 'a' });
    expect(mock.requestLog()[0]?.headers).not.toHaveProperty('x-team');
    expect(mock.requestLog()[0]?.headers).not.toHaveProperty('x-trace');
    expect(mock.requestLog()[0]?.headers).toMatchObject({ 'x-keep': 'k' });
    // Only that call: the client's next call carries them again.
    expect(mock.requestLog()[1]?.headers).toMatchObject({ 'x-team': 'a', 'x-trace': 'client' });
  });

  it('leave out the SDK’s own User-Agent given null in an array of pairs', async () => {
    await get({ headers: [['User-Agent', null]] });
    await get({});
    // Node's fetch sends its own when none is set.
    expect(mock.requestLog()[0]?.headers['user-agent']).not.toMatch(/agentchat-js/);
    expect(mock.requestLog()[1]?.headers['user-agent']).toMatch(/agentchat-js/);
  });

  it('are read when the call starts: a Headers object changed afterwards changes nothing', async () => {
    mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });
    const headers = new Headers({ 'x-trace': 'first' });
    const call = read(client(), { headers });
    headers.set('x-trace', 'changed');
    await call;
    expect(mock.requestLog().map((request) => request.headers['x-trace'])).toEqual([
      'first',
      'first',
    ]);
  });

  it.each([
    ['a number in an object', { 'x-n': 1 }, 'headers.x-n', /expected a string/],
    ['a number in a pair', [['x-n', 1]], 'headers.x-n', /expected a string/],
    ['a pair of three', [['x-n', 'a', 'b']], 'headers.0', /\[name, value\] pair/],
    ['a control character in a Headers object', new Headers({ 'x-n': 'a\u0001b' }), 'headers.x-n'],
    ['a line break in a pair', [['x-n', 'a\r\nInjected: 1']], 'headers.x-n', /line breaks/],
    ['a bad name in a pair', [['x n', 'a']], 'headers.x n', /not a valid header name/],
    ['a string', 'x-n: 1', 'headers', /expected a Headers object/],
    ['a Map of pairs with a number', new Map([['x-n', 1]]), 'headers.x-n', /expected a string/],
  ])('refuse %s, sending nothing', async (_case, headers, path, message = /./) => {
    const error = await rejection(client().projects.get('proj_1', { headers } as never));
    expect(error.issues).toEqual([{ path, message: expect.stringMatching(message) }]);
    expect(mock.requestLog()).toHaveLength(0);
  });
});

describe('headers of the client', () => {
  it.each([
    [
      'a Headers object',
      () => new Headers({ 'X-Team': 'support' }),
      (headers: Headers) => headers.set('x-team', 'changed'),
    ],
    [
      'an array of pairs',
      () => [['X-Team', 'support']],
      (headers: string[][]) => headers.push(['x-team', 'changed']),
    ],
    [
      'an object',
      () => ({ 'X-Team': 'support' }),
      (headers: Record<string, string>) => {
        headers['X-Team'] = 'changed';
      },
    ],
  ] as const)('are taken as %s, and copied', async (_form, make, change) => {
    const headers = make();
    const agentchat = client({ headers });
    (change as (headers: unknown) => void)(headers);
    await read(agentchat);
    expect(mock.requestLog()[0]?.headers['x-team']).toBe('support');
  });

  it.each([
    ['an object', { 'x-team': 'sales' }],
    ['an object with null', { 'x-team': 'sales', 'x-trace': null }],
    ['a Headers object', new Headers({ 'X-Team': 'sales' })],
    [
      'an array of pairs with null',
      [
        ['X-Team', 'sales'],
        ['x-trace', null],
      ] as const,
    ],
  ])('are replaced by withOptions given %s', async (_form, headers) => {
    const base = client({ headers: { 'x-team': 'support', 'x-trace': 't' } });
    await read(base.withOptions({ headers }));
    // The parent's own copy, in whatever form it holds it, is taken again by a derived client.
    await read(base.withOptions({ timeout: 5_000 }));
    expect(mock.requestLog()[0]?.headers['x-team']).toBe('sales');
    expect(mock.requestLog()[0]?.headers).not.toHaveProperty('x-trace');
    expect(mock.requestLog()[1]?.headers).toMatchObject({ 'x-team': 'support', 'x-trace': 't' });
  });

  it('take null or undefined as a header left out, which drops the SDK’s own', async () => {
    await read(client({ headers: { 'x-team': null, 'User-Agent': null, 'x-keep': undefined } }));
    expect(mock.requestLog()[0]?.headers).not.toHaveProperty('x-team');
    expect(mock.requestLog()[0]?.headers['user-agent']).not.toMatch(/agentchat-js/);
    expect(mock.requestLog()[0]?.headers).not.toHaveProperty('x-keep');
  });

  it('are checked in every form, as those of a call', () => {
    expect(() => client({ headers: [['x-n', 'a\nb']] })).toThrow(/headers.x-n: must not contain/);
    expect(() => client({ headers: new Headers({ 'x-n': 'a\u0001b' }) })).toThrow(/headers.x-n/);
    expect(() => client({ headers: 42 as never })).toThrow(/headers: expected a Headers object/);
  });
});

describe('signal: null', () => {
  it('is no signal: the call is sent and answered', async () => {
    const project = await client().projects.create({ name: 'P', agentId: 'a' }, { signal: null });
    expect(project.name).toBe('P');
    expect(mock.requestLog()).toHaveLength(1);
  });

  it('is told apart from what is no signal at all', async () => {
    const error = await rejection(client().projects.get('proj_1', { signal: 'no' } as never));
    expect(error.issues).toEqual([{ path: 'signal', message: 'expected an AbortSignal or null' }]);
  });
});

describe('metadata typed by an interface', () => {
  interface TeamMetadata {
    team: string;
    tier?: number;
  }

  it('is sent as the JSON it is', async () => {
    const metadata: TeamMetadata = { team: 'support', tier: 2 };
    await client().projects.create({ name: 'P', agentId: 'a', metadata });
    expect(mock.requestLog()[0]?.body).toMatchObject({ metadata: { team: 'support', tier: 2 } });
  });

  it('is still refused when it is no plain JSON object, such as a class instance', async () => {
    class Team {
      team = 'support';
    }
    const error = await rejection(
      client().projects.create({ name: 'P', agentId: 'a', metadata: new Team() }),
    );
    expect(error.issues[0]?.path).toBe('metadata');
    expect(mock.requestLog()).toHaveLength(0);
  });
});

describe('client.request with a method known only at run time', () => {
  it('still refuses a GET with a body when it is sent', async () => {
    const method = 'GET' as HttpMethod;
    const error = await rejection(
      client().request({ method, path: '/v1/projects', body: { name: 'P' } }),
    );
    expect(error.issues).toEqual([{ path: 'body', message: 'a GET request has no body' }]);
    expect(mock.requestLog()).toHaveLength(0);
  });
});
