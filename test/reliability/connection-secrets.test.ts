/**
 * A connection failure quotes what the application's own `fetch` or dispatcher said, and those
 * may quote the request: its Authorization header, its form body. None of the call's secrets
 * (the key, a token a key function hands out, a client secret, an assertion, an identity token)
 * reaches what the SDK shows of the failure: the message, the cause chain as inspected, logged or
 * serialised, the log lines and the diagnostics channels.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentChatError,
  APIConnectionError,
  Client,
  type ClientOptions,
  clientCredentials,
  workloadIdentity,
} from '../../src/index.js';
import { quotingDispatcher, quotingFetch, textsWithSecret } from '../helpers/quoting-fetch.js';
import { recordingLogger, renderings } from '../helpers/reliability.js';

/** A key with characters that JSON escapes and a URL encodes, so that each form is searched. */
const KEY = 'sk_live_"q\\u/p+z=9c1e7a44d0b8';
const baseUrl = 'http://127.0.0.1:59999/api';

/** Every error the diagnostics channels published while subscribed. */
const published: unknown[] = [];
const subscriptions = ['agentchat:call', 'agentchat:attempt'].map((name) => {
  const channel = diagnosticsChannel.tracingChannel<unknown, { error?: unknown }>(name);
  const handlers = {
    start: () => {},
    end: () => {},
    asyncStart: () => {},
    asyncEnd: (context: { error?: unknown }) => published.push(context.error),
    error: (context: { error?: unknown }) => published.push(context.error),
  };
  return { channel, handlers };
});

function subscribe() {
  for (const { channel, handlers } of subscriptions) channel.subscribe(handlers);
}

afterEach(() => {
  for (const { channel, handlers } of subscriptions) channel.unsubscribe(handlers);
  published.length = 0;
});

/** Makes one call that fails, and gathers every text it showed. */
async function failedCall(options: ClientOptions) {
  subscribe();
  const logger = recordingLogger();
  const client = new Client({
    baseUrl,
    maxRetries: 0,
    retryBudget: false,
    logger,
    logLevel: 'debug',
    ...options,
  });
  const error = await client.projects.get('proj_1').then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  const texts = [
    ...renderings(error),
    ...logger.lines.map((line) => line.text),
    ...published.flatMap((each) => renderings(each)),
  ];
  return { error, texts, published: published.filter(Boolean) };
}

describe("an application's fetch whose error quotes the request", () => {
  it('shows the failure without the key, in every form, wherever the error goes', async () => {
    const { error, texts, published } = await failedCall({
      apiKey: KEY,
      maxRetries: 1,
      fetch: quotingFetch,
    });

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(published.length).toBeGreaterThan(0);
    expect(textsWithSecret(texts, KEY)).toEqual([]);
    // What it said is still there, less the key.
    const { message, cause } = error as APIConnectionError;
    expect(message).toMatch(
      /^GET \/v1\/projects\/proj_1 could not reach the service \(fetch failed: GET http:\/\/127\.0\.0\.1:59999\/api\/v1\/projects\/proj_1 \(Authorization: Bearer \[redacted\]\): connect ECONNREFUSED; sent headers .*"authorization":"Bearer \[redacted\]".*\) after 2 attempts$/,
    );
    // The cause as shown keeps its class and fields, the key replaced in each.
    expect(cause).toBeInstanceOf(TypeError);
    const refusal = (cause as Error).cause as Error & { code: string; headers: object };
    expect(refusal.code).toBe('ECONNREFUSED');
    expect(refusal.headers).toMatchObject({ authorization: 'Bearer [redacted]' });
    expect(inspect(error, { depth: null })).toContain('[cause]: TypeError: fetch failed');
  });

  it('keeps a token that a key function hands out out of it too', async () => {
    const token = 'tok_a7/c2+e9"f1';
    const { error, texts } = await failedCall({ apiKey: () => token, fetch: quotingFetch });

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(textsWithSecret(texts, token)).toEqual([]);
  });

  it('keeps the key out of a token cut short, which no whole key matches', async () => {
    const cutting: typeof fetch = async (_input, init) => {
      const authorization = new Headers(init?.headers).get('authorization') ?? '';
      throw new Error(`refused ${authorization.slice(0, 20)}…`);
    };
    const { error } = await failedCall({ apiKey: KEY.replace(/"/g, ''), fetch: cutting });

    expect((error as Error).message).toContain('(refused Bearer [redacted]) after 1 attempt');
  });

  it('leaves a cause that quotes no secret as it is: the same object', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    const { error } = await failedCall({
      apiKey: KEY,
      fetch: () => Promise.reject(refused),
    });

    expect((error as Error).cause).toBe(refused);
  });

  it("never changes the application's own error", async () => {
    let thrown: Error | undefined;
    const keeping: typeof fetch = (input, init) =>
      quotingFetch(input, init).catch((error: Error) => {
        thrown = error;
        throw error;
      });
    const { error } = await failedCall({ apiKey: KEY, fetch: keeping });

    expect((error as Error).cause).not.toBe(thrown);
    expect(thrown?.message).toContain(`Bearer ${KEY}`);
  });
});

describe('a cause of any shape', () => {
  it("keeps the key out of an AggregateError's errors and out of a cause chain that loops", async () => {
    const looping: typeof fetch = async (_input, init) => {
      const authorization = new Headers(init?.headers).get('authorization');
      const inner = new Error(`attempt to ::1 sent ${authorization}`) as Error & { cause: unknown };
      const all = new AggregateError([inner, new Error('connect ECONNREFUSED 127.0.0.1')], 'all');
      inner.cause = all;
      throw new TypeError('fetch failed', { cause: all });
    };
    const { error, texts } = await failedCall({ apiKey: KEY, fetch: looping });

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(textsWithSecret(texts, KEY)).toEqual([]);
    const shown = (error as Error).cause as Error & { cause: AggregateError };
    expect(shown.cause).toBeInstanceOf(AggregateError);
    expect(shown.cause.errors.map((each: Error) => each.message)).toEqual([
      'attempt to ::1 sent Bearer [redacted]',
      'connect ECONNREFUSED 127.0.0.1',
    ]);
    // The loop is kept, between the copies.
    expect((shown.cause.errors[0] as Error).cause).toBe(shown.cause);
  });
});

describe('an undici dispatcher whose error quotes the request', () => {
  it('shows the failure without the key', async () => {
    const { error, texts } = await failedCall({
      apiKey: KEY,
      fetchOptions: { dispatcher: quotingDispatcher },
    });

    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('dispatch refused');
    expect(textsWithSecret(texts, KEY)).toEqual([]);
  });
});

describe('a middleware whose error quotes the request', () => {
  it('shows its failure without the key', async () => {
    const { error, texts } = await failedCall({
      apiKey: KEY,
      middleware: [
        (request) => {
          throw new Error(`denied ${request.headers.get('authorization')}`);
        },
      ],
    });

    expect(error).toBeInstanceOf(AgentChatError);
    expect((error as Error).message).toContain('a middleware failed: denied Bearer [redacted]');
    expect(textsWithSecret(texts, KEY)).toEqual([]);
  });
});

describe('the token endpoint reached through a fetch that quotes the request', () => {
  const secret = 'cs_"w\\9/k+e=4f1b7d';
  const tokenUrl = 'http://127.0.0.1:59999/token';

  it.each(['client_secret_basic', 'client_secret_post'] as const)(
    'keeps the client secret out of the failure (%s)',
    async (authMethod) => {
      const { error, texts } = await failedCall({
        apiKey: clientCredentials({
          tokenUrl,
          clientId: 'svc',
          clientSecret: secret,
          authMethod,
          fetch: quotingFetch,
        }),
      });

      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toMatch(
        /^POST http:\/\/127\.0\.0\.1:59999\/token could not reach the service/,
      );
      expect(textsWithSecret(texts, secret)).toEqual([]);
      const basic = btoa(`svc:${encodeURIComponent(secret)}`);
      expect(textsWithSecret(texts, basic)).toEqual([]);
    },
  );

  it('keeps a client assertion out of the failure', async () => {
    const assertion = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzdmMifQ.c2lnbmF0dXJl';
    const { error, texts } = await failedCall({
      apiKey: clientCredentials({
        tokenUrl,
        clientId: 'svc',
        clientAssertion: () => assertion,
        fetch: quotingFetch,
      }),
    });

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(textsWithSecret(texts, assertion)).toEqual([]);
  });

  it("keeps a workload's identity token out of the failure", async () => {
    const identity = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.aWRlbnRpdHk';
    const { error, texts } = await failedCall({
      apiKey: workloadIdentity({
        tokenUrl,
        clientId: 'svc',
        identityToken: () => identity,
        fetch: quotingFetch,
      }),
    });

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(textsWithSecret(texts, identity)).toEqual([]);
  });
});
