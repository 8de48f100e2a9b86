/**
 * OAuth 2.0 client credentials against the mock's token endpoint (RFC 6749 section 4.4), through
 * the public API. The clock is fake wherever time matters: the mock's tokens expire on it too.
 */
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AgentChatError,
  APIConnectionError,
  AuthenticationError,
  Client,
  type ClientCredentialsOptions,
  clientCredentials,
  InternalServerError,
  OAuthError,
} from '../../src/index.js';
import { leaksOf, recordingLogger } from '../helpers/reliability.js';
import { useMockService } from '../helpers/use-mock-service.js';

// A secret with every character Basic authentication must form-encode (RFC 6749 section 2.3.1).
const clientId = 'reporting:svc';
const clientSecret = 's3cr:et+with/slash es%';
const { mock } = useMockService({
  oauthClients: [{ clientId, clientSecret }],
  tokenLifetimeMs: 3_600_000,
});
const tokenUrl = `${mock.baseUrl}/oauth/token`;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function oauthClient(options: Partial<ClientCredentialsOptions> = {}, logger = recordingLogger()) {
  const apiKey = clientCredentials({ tokenUrl, clientId, clientSecret, ...options });
  const client = new Client({ apiKey, baseUrl: mock.baseUrl, logger, logLevel: 'debug' });
  return { apiKey, client, logger };
}

const tokenRequests = () => mock.requestLog().filter((r) => r.path.endsWith('/oauth/token'));
const serviceRequests = () => mock.requestLog().filter((r) => !r.path.endsWith('/oauth/token'));
const bearerOf = (request: { headers: Record<string, string> } | undefined) =>
  request?.headers.authorization?.replace(/^Bearer /, '');

/** Settles a promise while running the fake clock, so backoffs and latency pass at once. */
async function settle<T>(call: Promise<T>): Promise<T | unknown> {
  const outcome = call.catch((error: unknown) => error);
  await vi.runAllTimersAsync();
  return outcome;
}

const create = (client: Client) => client.projects.create({ name: 'P', agentId: 'a' });

describe('the token request', () => {
  it('follows RFC 6749 4.4: a form POST, the client in Basic with each part form-encoded', async () => {
    const { client } = oauthClient({ scope: 'projects chat', audience: 'https://agentchat' });
    await create(client);
    const [request] = tokenRequests();
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(request?.body as string);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: 'client_credentials',
      scope: 'projects chat',
      audience: 'https://agentchat',
    });
    const basic = atob(request?.headers.authorization?.replace(/^Basic /, '') ?? '');
    expect(basic).toBe('reporting%3Asvc:s3cr%3Aet%2Bwith%2Fslash+es%25');
    // The token reached the service as the bearer of the call.
    expect(bearerOf(serviceRequests()[0])).toBe(mock.oauth.tokens()[0]?.accessToken);
  });

  it('can authenticate the client in the body instead (client_secret_post)', async () => {
    const { client } = oauthClient({ authMethod: 'client_secret_post' });
    await create(client);
    const [request] = tokenRequests();
    expect(request?.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(request?.body as string))).toEqual({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
  });

  it('refuses bad options at once, naming them', () => {
    const make = (options: Partial<ClientCredentialsOptions>) => () =>
      clientCredentials({ tokenUrl, clientId, clientSecret, ...options });
    expect(make({ tokenUrl: 'not-a-url' })).toThrow(/tokenUrl: expected an absolute http\(s\) URL/);
    expect(make({ tokenUrl: `${tokenUrl}#x` })).toThrow(/without a fragment/);
    // Pasted with a line break, or a space: the URL parser would quietly drop or encode it.
    expect(make({ tokenUrl: `${tokenUrl}\n` })).toThrow(/whitespace or control characters/);
    expect(make({ tokenUrl: ` ${tokenUrl}` })).toThrow(/whitespace or control characters/);
    expect(make({ clientSecret: '' })).toThrow(/clientSecret: must not be empty/);
    expect(make({ authMethod: 'jwt' as never })).toThrow(AgentChatError);
    expect(make({ refreshMarginMs: -1 })).toThrow(/refreshMarginMs/);
    expect(make({ clientSecet: 'x' } as never)).toThrow(/did you mean clientSecret\?/);
  });
});

describe('one token for every call', () => {
  it('makes exactly one token request for 100 concurrent calls on a cold cache', async () => {
    const { client } = oauthClient();
    const results = await Promise.all(Array.from({ length: 100 }, () => create(client)));
    expect(results).toHaveLength(100);
    expect(tokenRequests()).toHaveLength(1);
    expect(new Set(serviceRequests().map(bearerOf)).size).toBe(1);
  });

  it('makes exactly one token request for 100 calls arriving as the token nears expiry', async () => {
    const { client } = oauthClient();
    await create(client);
    const [first] = mock.oauth.tokens();
    // Inside the refresh window (5 minutes before expiry), still valid.
    vi.advanceTimersByTime(3600_000 - 60_000);
    await Promise.all(Array.from({ length: 100 }, () => create(client)));
    await vi.runAllTimersAsync();
    expect(tokenRequests()).toHaveLength(2);
    // Those calls did not wait: they went out with the token in hand while it was refreshed.
    expect(
      serviceRequests()
        .slice(1)
        .every((r) => bearerOf(r) === first?.accessToken),
    ).toBe(true);
    await create(client);
    expect(bearerOf(serviceRequests().at(-1))).toBe(mock.oauth.tokens()[1]?.accessToken);
  });
});

describe('refreshing', () => {
  it('uses refreshMarginMs when it is under half the lifetime', async () => {
    const { client } = oauthClient({ refreshMarginMs: 60_000 });
    await create(client);
    vi.advanceTimersByTime(3600_000 - 60_001);
    await create(client);
    expect(tokenRequests()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await create(client);
    await vi.runAllTimersAsync();
    expect(tokenRequests()).toHaveLength(2);
  });

  it('never sends an expired token: the call waits for a new one', async () => {
    const { client } = oauthClient();
    await create(client);
    vi.advanceTimersByTime(3600_000);
    await create(client);
    const [old, fresh] = mock.oauth.tokens();
    expect(bearerOf(serviceRequests()[1])).toBe(fresh?.accessToken);
    expect(serviceRequests().map(bearerOf)).not.toContain(undefined);
    expect(fresh?.accessToken).not.toBe(old?.accessToken);
    // The service refused nothing: no request carried a token past its expiry.
    expect(serviceRequests().every((r) => r.status === 201)).toBe(true);
  });

  it('replaces a token that expires between two attempts of one call before the next', async () => {
    // No refresh ahead, so that the token in hand is the one that expires.
    const { client } = oauthClient({ refreshMarginMs: 0 });
    await create(client);
    vi.advanceTimersByTime(3600_000 - 400);
    // 503 with a 1 s wait: the token expires during it.
    mock.enqueue({
      kind: 'status',
      status: 503,
      headers: { 'retry-after': '1' },
      path: '/v1/projects',
    });
    const project = await settle(create(client));
    expect(project).toMatchObject({ name: 'P' });
    const [old, fresh] = mock.oauth.tokens();
    expect(serviceRequests().slice(1).map(bearerOf)).toEqual([
      old?.accessToken,
      fresh?.accessToken,
    ]);
    expect(serviceRequests().at(-1)?.status).toBe(201);
  });

  it('counts the lifetime from when the token was asked for, whatever the server’s clock says', async () => {
    // A token endpoint whose clock is an hour ahead, and slow: 2 s to answer a 10 s token.
    let sent = 0;
    const skewed: typeof fetch = async (input) => {
      sent++;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      void input;
      return Response.json(
        { access_token: `at_skewed_${sent}`, token_type: 'bearer', expires_in: 10 },
        { headers: { date: new Date(Date.now() + 3600_000).toUTCString() } },
      );
    };
    const apiKey = clientCredentials({ tokenUrl, clientId, clientSecret, fetch: skewed });
    const first = apiKey({});
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await first).toBe('at_skewed_1');
    // Sent at 0 with a 10 s life: refreshed from 5 s (half), and expired at 10 s, not 12 s.
    vi.advanceTimersByTime(2_900);
    expect(await apiKey({})).toBe('at_skewed_1');
    expect(sent).toBe(1);
    vi.advanceTimersByTime(5_100); // 10 s after the request was sent
    const afterExpiry = apiKey({});
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await afterExpiry).toBe('at_skewed_2');
  });
});

describe('a token endpoint in trouble', () => {
  it('that refuses fails the call with OAuthError, and nothing reaches the service', async () => {
    const apiKey = clientCredentials({ tokenUrl, clientId, clientSecret: 'wrong-secret' });
    const client = new Client({ apiKey, baseUrl: mock.baseUrl });
    const error = await create(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
    expect((error as Error).message).toMatch(
      /refused to issue a token \(status 401, invalid_client/,
    );
    expect(serviceRequests()).toEqual([]);
    expect(tokenRequests()).toHaveLength(1);
  });

  it('that refuses a scope gives the RFC error and its description', async () => {
    mock.enqueue({
      kind: 'status',
      status: 400,
      path: '/oauth/token',
      body: { error: 'invalid_scope', error_description: 'No such scope: admin' },
    });
    const { client } = oauthClient({ scope: 'admin' });
    const error = await create(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_scope',
      errorDescription: 'No such scope: admin',
    });
    expect(serviceRequests()).toEqual([]);
  });

  it('that is down is retried with backoff, then the call goes on', async () => {
    mock.enqueue(
      { kind: 'status', status: 503, path: '/oauth/token' },
      { kind: 'network-error', path: '/oauth/token' },
    );
    const { client } = oauthClient();
    const project = await settle(create(client));
    expect(project).toMatchObject({ name: 'P' });
    expect(tokenRequests()).toHaveLength(3);
    expect(serviceRequests()).toHaveLength(1);
  });

  it('that stays down fails the call with the status’s error or APIConnectionError', async () => {
    mock.enqueue(
      ...[1, 2, 3].map(() => ({ kind: 'status' as const, status: 503, path: '/oauth/token' })),
    );
    const { client } = oauthClient();
    expect(await settle(create(client))).toBeInstanceOf(InternalServerError);
    mock.enqueue(
      ...[1, 2, 3].map(() => ({ kind: 'network-error' as const, path: '/oauth/token' })),
    );
    const error = await settle(create(client));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/after 3 attempts$/);
    expect(serviceRequests()).toEqual([]);
  });

  it('that fails to refresh while the token is still valid fails no call', async () => {
    const { client } = oauthClient();
    await create(client);
    vi.advanceTimersByTime(3600_000 - 60_000);
    mock.enqueue(
      ...[1, 2, 3].map(() => ({ kind: 'status' as const, status: 503, path: '/oauth/token' })),
    );
    const projects = await settle(Promise.all([create(client), create(client)]));
    expect(projects).toHaveLength(2);
    // The next call after the failed refresh tries again, and gets a new token.
    await settle(create(client));
    expect(mock.oauth.tokens()).toHaveLength(2);
  });
});

describe('the 401 replay', () => {
  it('replays a call the service refused once, with a fresh token, outside the retries', async () => {
    const { client } = oauthClient();
    await create(client);
    const [revoked] = mock.oauth.tokens();
    mock.oauth.revokeToken(revoked?.accessToken ?? '');
    const project = await create(client.withOptions({ maxRetries: 0 }));
    expect(project).toMatchObject({ name: 'P' });
    const [, refused, replayed] = serviceRequests();
    expect([refused?.status, replayed?.status]).toEqual([401, 201]);
    expect(bearerOf(refused)).toBe(revoked?.accessToken);
    expect(bearerOf(replayed)).toBe(mock.oauth.tokens()[1]?.accessToken);
    // Both attempts are one call: one Idempotency-Key, one project.
    expect(replayed?.headers['idempotency-key']).toBe(refused?.headers['idempotency-key']);
    expect(mock.projects()).toHaveLength(2);
  });

  it('tells the function which token was refused, and gives up on a second 401', async () => {
    const contexts: Array<{ rejected?: string }> = [];
    const apiKey = (context: { rejected?: string }) => {
      contexts.push(context);
      return `sk_rotating_${contexts.length}`;
    };
    mock.enqueue({ kind: 'status', status: 401 }, { kind: 'status', status: 401 });
    const client = new Client({ apiKey, baseUrl: mock.baseUrl });
    const error = await create(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    // Each context also carries `warn`, the client's logger at its default level.
    expect(contexts.map((context) => context.rejected)).toEqual([undefined, 'sk_rotating_1']);
    expect(contexts.map((context) => 'rejected' in context)).toEqual([false, true]);
    expect(serviceRequests()).toHaveLength(2);
  });

  it('is not made for a key given as a string', async () => {
    mock.enqueue({ kind: 'status', status: 401 });
    const client = new Client({ apiKey: 'sk_test_fixed_key', baseUrl: mock.baseUrl });
    expect(await create(client).catch((e: unknown) => e)).toBeInstanceOf(AuthenticationError);
    expect(serviceRequests()).toHaveLength(1);
  });
});

describe('secrets', () => {
  it('keeps the client secret and every token out of errors, logs and inspected objects', async () => {
    const logger = recordingLogger();
    const { apiKey, client } = oauthClient({}, logger);
    await create(client);
    const [token] = mock.oauth.tokens();
    mock.oauth.revokeToken(token?.accessToken ?? '');
    // The service echoes the token it refused; the token endpoint echoes the secret it was sent.
    mock.enqueue({
      kind: 'status',
      status: 400,
      path: '/v1/projects',
      body: { error: { message: `echo ${token?.accessToken}` } },
    });
    const error = await create(client).catch((e: unknown) => e);
    mock.enqueue({
      kind: 'status',
      status: 400,
      path: '/oauth/token',
      headers: { 'x-debug': `secret=${clientSecret}` },
      body: { error: 'invalid_request', error_description: `bad secret ${clientSecret}` },
    });
    const fresh = clientCredentials({ tokenUrl, clientId, clientSecret });
    const refused = await new Client({ apiKey: fresh, baseUrl: mock.baseUrl }).projects
      .get('proj_1')
      .catch((e: unknown) => e);
    const secrets = [clientSecret, ...mock.oauth.tokens().map((t) => t.accessToken)];
    const shown = [
      ...logger.lines.map((line) => line.text),
      inspect(client, { depth: 10, showHidden: true }),
      inspect(apiKey, { depth: 10, showHidden: true }),
      JSON.stringify(client),
    ].join('\n');
    for (const secret of secrets) {
      expect(shown).not.toContain(secret);
      expect(leaksOf(error, secret)).toEqual([]);
      expect(leaksOf(refused, secret)).toEqual([]);
    }
    expect(refused).toBeInstanceOf(OAuthError);
  });
});
