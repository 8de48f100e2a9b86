/**
 * No secret on the diagnostics channels: a subscriber to every event of `agentchat:call` and
 * `agentchat:attempt` (anyone's code: an APM agent, a debug logger) watches token requests of
 * every grant and client authentication method succeed, get retried, get refused and fail to
 * connect, against a real server on 127.0.0.1. Everything it was handed, errors with their causes
 * and headers included, is serialized and searched for every secret that crossed the wire and
 * every token the server issued.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  type ApiKeyFunction,
  Client,
  clientCredentials,
  OAuthError,
  workloadIdentity,
} from '../../src/index.js';
import { makeClientKey } from '../helpers/authorization-server.js';
import { freePort } from '../helpers/free-port.js';
import {
  freshToken,
  identityToken,
  issuedToken,
  sentSecrets,
  startTokenServer,
  type TokenServer,
} from '../oauth/token-server.js';

const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * Subscribes to every event of both channels; each event is serialized as it is published, so a
 * later change to the context cannot hide what a subscriber saw then.
 */
function watchChannels() {
  const seen: {
    channel: string;
    event: string;
    operation: string;
    /** The context's own fields, by name. */
    fields: string[];
    text: string;
  }[] = [];
  const stops = ['agentchat:call', 'agentchat:attempt'].map((name) => {
    const channel = diagnosticsChannel.tracingChannel<unknown, { operation: string }>(name);
    const handlers = Object.fromEntries(
      EVENTS.map((event) => [
        event,
        (context: { operation: string }) =>
          seen.push({
            channel: name,
            event,
            operation: context.operation,
            fields: Object.keys(context),
            text: serialize(context),
          }),
      ]),
    ) as unknown as diagnosticsChannel.TracingChannelSubscribers<{ operation: string }>;
    channel.subscribe(handlers);
    return () => channel.unsubscribe(handlers);
  });
  return {
    seen,
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}

/**
 * Everything a subscriber can reach from a value: as JSON with each error written out (name,
 * message, stack, every own property, its cause chain), Headers as their entries, and as
 * `util.inspect` shows it with hidden properties.
 */
function serialize(value: unknown): string {
  const written = new WeakSet<object>();
  const json = JSON.stringify(value, function replace(_key, field: unknown) {
    if (typeof field === 'object' && field !== null) {
      if (written.has(field)) return '[seen]';
      written.add(field);
    }
    if (field instanceof Headers) return [...field];
    if (field instanceof Error) {
      const own = Object.fromEntries(
        Object.getOwnPropertyNames(field).map((name) => [
          name,
          (field as unknown as Record<string, unknown>)[name],
        ]),
      );
      return {
        ...own,
        name: field.name,
        message: field.message,
        stack: field.stack,
        cause: field.cause,
      };
    }
    return field;
  });
  return `${json}\n${inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true })}`;
}

let server: TokenServer;
let privateKey: string;
let watch: ReturnType<typeof watchChannels> | undefined;
/** The secrets each provider was configured with, besides what the server saw. */
const configured: string[] = [];

beforeAll(async () => {
  server = await startTokenServer();
  privateKey = (await makeClientKey()).pem;
});
afterAll(() => server.close());
afterEach(() => {
  watch?.stop();
  server.reset();
  configured.length = 0;
});

/** A provider of each grant and client authentication method, towards `target`. */
const providers: Record<
  string,
  (target: { issuer: string } | { tokenUrl: string }) => ApiKeyFunction
> = {
  'client credentials, client_secret_basic': (target) => {
    const clientSecret = freshToken('secret');
    configured.push(clientSecret);
    return clientCredentials({ ...target, clientId: 'basic-client', clientSecret });
  },
  'client credentials, client_secret_post': (target) => {
    const clientSecret = freshToken('secret');
    configured.push(clientSecret);
    return clientCredentials({
      ...target,
      clientId: 'post-client',
      clientSecret,
      authMethod: 'client_secret_post',
    });
  },
  'client credentials, private_key_jwt': (target) =>
    clientCredentials({ ...target, clientId: 'key-client', privateKey }),
  'client credentials, a client assertion': (target) => {
    const assertion = identityToken();
    configured.push(assertion);
    return clientCredentials({
      ...target,
      clientId: 'federated',
      clientAssertion: () => assertion,
    });
  },
  'jwt-bearer, a public client (client_id, no authentication)': (target) => {
    const token = identityToken();
    configured.push(token);
    return workloadIdentity({ ...target, clientId: 'workload', identityToken: () => token });
  },
  'jwt-bearer, no client authentication at all': (target) => {
    const token = identityToken();
    configured.push(token);
    return workloadIdentity({ ...target, identityToken: () => token });
  },
  'token exchange': (target) => {
    const token = identityToken();
    configured.push(token);
    return workloadIdentity({ ...target, grant: 'token-exchange', identityToken: () => token });
  },
};

/** A token exchange is answered with the type it asked for; the other grants need none. */
function granted(token: string) {
  return issuedToken(token, {
    issued_token_type: ACCESS_TOKEN_TYPE,
    refresh_token: freshToken('rt'),
  });
}

/** Every secret of the run: configured, sent (assertions are made per request), and issued. */
function secrets(): string[] {
  const all = [...configured, privateKey, ...sentSecrets(server.requests), ...server.issued];
  // The key's PEM body, line by line, should a subscriber ever see part of it.
  const keyLines = privateKey.split('\n').filter((line) => line.length > 40);
  return [...new Set([...all, ...keyLines])];
}

/** No event holds a secret, and no `oauth.*` context has `params` or `result`, even unset. */
function expectNoSecret(seen: { operation: string; fields: string[]; text: string }[]): void {
  const found = secrets().filter((secret) => seen.some(({ text }) => text.includes(secret)));
  expect(found).toEqual([]);
  const withData = seen.filter(
    ({ operation, fields }) =>
      operation.startsWith('oauth.') && (fields.includes('params') || fields.includes('result')),
  );
  expect(withData).toEqual([]);
}

describe.each(Object.entries(providers))('%s: no secret on the channels', (_name, provider) => {
  it('when the token request succeeds (through discovery), then the call', async () => {
    watch = watchChannels();
    server.answer(granted);
    const client = new Client({
      baseUrl: server.baseUrl,
      apiKey: provider({ issuer: server.issuer }),
    });
    await client.projects.get('proj_1');

    const operations = new Set(watch.seen.map(({ operation }) => operation));
    expect(operations).toEqual(new Set(['oauth.discovery', 'oauth.token', 'projects.get']));
    const events = watch.seen.filter(({ operation }) => operation === 'oauth.token');
    expect(events.map(({ channel, event }) => `${channel} ${event}`)).toEqual([
      'agentchat:call start',
      'agentchat:call end',
      'agentchat:attempt start',
      'agentchat:attempt end',
      'agentchat:attempt asyncStart',
      'agentchat:attempt asyncEnd',
      'agentchat:call asyncStart',
      'agentchat:call asyncEnd',
    ]);
    expect(server.issued).toHaveLength(2);
    expect(sentSecrets(server.requests).length).toBeGreaterThan(0);
    expectNoSecret(watch.seen);
  });

  it('when the token endpoint answers 503, then a token', async () => {
    watch = watchChannels();
    server.answer(
      { status: 503, body: { error: 'temporarily_unavailable' }, headers: { 'retry-after': '0' } },
      granted,
    );
    const client = new Client({
      baseUrl: server.baseUrl,
      apiKey: provider({ tokenUrl: server.tokenUrl }),
    });
    await client.projects.get('proj_1');

    const attempts = watch.seen.filter(
      ({ channel, event, operation }) =>
        channel === 'agentchat:attempt' && event === 'asyncEnd' && operation === 'oauth.token',
    );
    expect(attempts).toHaveLength(2);
    expectNoSecret(watch.seen);
  });

  it('when the token endpoint refuses the client (400 invalid_client)', async () => {
    watch = watchChannels();
    server.answer({
      status: 400,
      body: { error: 'invalid_client', error_description: 'client authentication failed' },
    });
    const client = new Client({
      baseUrl: server.baseUrl,
      apiKey: provider({ tokenUrl: server.tokenUrl }),
    });
    await expect(client.projects.get('proj_1')).rejects.toThrow(OAuthError);

    const errors = watch.seen.filter(
      ({ event, operation }) => event === 'error' && operation === 'oauth.token',
    );
    expect(errors.map(({ channel }) => channel)).toEqual(['agentchat:call']);
    expect(server.requests.filter(({ path }) => path.startsWith('/api/'))).toEqual([]);
    expectNoSecret(watch.seen);
  });

  it('when the token endpoint cannot be reached (connection refused)', async () => {
    watch = watchChannels();
    const tokenUrl = `http://127.0.0.1:${await freePort()}/token`;
    const client = new Client({ baseUrl: server.baseUrl, apiKey: provider({ tokenUrl }) });
    await expect(client.projects.get('proj_1')).rejects.toThrow(APIConnectionError);

    const failed = watch.seen.filter(
      ({ channel, event, operation }) =>
        channel === 'agentchat:attempt' && event === 'error' && operation === 'oauth.token',
    );
    expect(failed).toHaveLength(3);
    expectNoSecret(watch.seen);
  });
});
