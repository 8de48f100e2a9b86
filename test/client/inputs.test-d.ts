import { describe, expectTypeOf, it } from 'vitest';
import {
  Client,
  type ClientOptions,
  type CustomRequest,
  type HttpMethod,
  type Metadata,
  type Project,
  type RequestOptions,
} from '../../src/index.js';

const client = new Client({ apiKey: 'k', baseUrl: 'https://host/api' });
const project = { name: 'n', agentId: 'a' };

describe('headers', () => {
  it('takes every form fetch takes, for the client and for a call', () => {
    const init: HeadersInit = { 'x-team': 'support' };
    const pairs: [string, string][] = [['x-team', 'support']];
    const frozen = [['x-team', 'support']] as const;
    const record: Record<string, string> = { 'x-team': 'support' };
    for (const headers of [new Headers(init), init, pairs, frozen, record]) {
      void new Client({ headers });
      void client.withOptions({ headers });
      void client.projects.get('proj_1', { headers });
    }
    void client.projects.create(project, { headers: new Headers({ 'x-trace': 'abc' }) });
    void client.request({ method: 'GET', path: '/v1/x' }, { headers: [['x-trace', 'abc']] });
  });

  it('takes null or undefined for a header not sent', () => {
    void client.projects.get('proj_1', { headers: { 'x-team': null, 'x-trace': undefined } });
    void client.projects.get('proj_1', { headers: [['x-team', null]] });
    void new Client({ headers: { 'x-team': null } });
    const options: RequestOptions = { headers: { 'X-Team': null } };
    void client.projects.get('proj_1', options);
  });

  it('takes Node’s own HeadersInit (undici’s): pairs typed string[][], a list as a value', () => {
    // A pair that is not of two compiles under that type, and is refused when sent.
    const pairs: string[][] = [['x-n', 'a']];
    void client.projects.get('proj_1', { headers: pairs });
    const lists: Record<string, string | readonly string[]> = { 'x-n': ['a', 'b'] };
    void client.projects.get('proj_1', { headers: lists });
    void new Client({ headers: lists });
  });

  it('refuses a value that is not a string', () => {
    // @ts-expect-error a header value is a string
    void client.projects.get('proj_1', { headers: { 'x-n': 1 } });
    // @ts-expect-error a header value is a string
    void client.projects.get('proj_1', { headers: [['x-n', 1]] });
    // @ts-expect-error a header value is a string
    void new Client({ headers: { 'x-n': 1 } });
    // @ts-expect-error headers are not a string
    void client.projects.get('proj_1', { headers: 'x-n: 1' });
    expectTypeOf<ClientOptions['headers']>().toEqualTypeOf<RequestOptions['headers']>();
  });
});

describe('signal', () => {
  it('takes null for no signal, as frameworks hand it out', () => {
    void client.projects.get('proj_1', { signal: null });
    void client.request({ method: 'GET', path: '/v1/x' }, { signal: null });
    const fromFramework = null as AbortSignal | null;
    void client.chat.send({ projectId: 'p', message: 'm' }, { signal: fromFramework });
    // @ts-expect-error a signal is an AbortSignal
    void client.projects.get('proj_1', { signal: true });
  });
});

describe('metadata', () => {
  interface TeamMetadata {
    team: string;
    tier?: number;
  }
  interface CallMetadata {
    call: string;
    length: number;
  }

  it('takes an object typed by an interface, a Metadata and an object literal', () => {
    const team: TeamMetadata = { team: 'support' };
    const metadata: Metadata = { tier: 2 };
    const readonlyRecord: Readonly<Record<string, string>> = { team: 'support' };
    // Fields named as members of Function or Array are no obstacle.
    const named: CallMetadata = { call: 'c', length: 2 };
    void client.projects.create({ ...project, metadata: named });
    void client.projects.create({ ...project, metadata: team });
    void client.projects.create({ ...project, metadata });
    void client.projects.create({ ...project, metadata: readonlyRecord });
    void client.projects.create({ ...project, metadata: { tier: 2, tags: ['beta'] } });
  });

  it('refuses what is no object of fields', () => {
    // @ts-expect-error metadata is an object, not an array
    void client.projects.create({ ...project, metadata: ['beta'] });
    // @ts-expect-error metadata is an object, not a Map
    void client.projects.create({ ...project, metadata: new Map([['tier', 2]]) });
    // @ts-expect-error metadata is an object, not a string
    void client.projects.create({ ...project, metadata: 'beta' });
  });

  it('reads metadata back as it did', () => {
    expectTypeOf<Project['metadata']>().toEqualTypeOf<Record<string, unknown>>();
  });
});

describe('client.request', () => {
  const body = { name: 'P' };

  it('takes a body for every method but GET', () => {
    const method = 'PATCH' as HttpMethod;
    // A method known only at run time takes a body; a GET among them is refused when sent.
    void client.request({ method, path: '/v1/x', body });
    const request: CustomRequest = { method, path: '/v1/x', body };
    void client.request(request);
    void client.request({ method: 'POST', path: '/v1/x', body });
    void client.request({ method: 'DELETE', path: '/v1/x', body });
    void client.request({ method: 'GET', path: '/v1/x' });
    const post: CustomRequest<'POST'> = { method: 'POST', path: '/v1/x', body };
    void client.request(post);
  });

  it('refuses a body for GET', () => {
    // @ts-expect-error a GET request has no body
    const get: CustomRequest<'GET'> = { method: 'GET', path: '/v1/x', body };
    void get;
    const empty: CustomRequest<'GET'> = { method: 'GET', path: '/v1/x', body: undefined };
    void client.request(empty);
    // @ts-expect-error written in the call, as most calls are
    void client.request({ method: 'GET', path: '/v1/x', body: { a: 1 } });
  });
});
