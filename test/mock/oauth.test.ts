import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createMockService, type MockServiceOptions } from '../../src/testing/index.js';
import { basicCredentials } from '../helpers/mock-scenarios.js';
import { create, errorOf, send } from '../helpers/send-to-mock.js';

const client = { clientId: 'reporting', clientSecret: 's3cret' };
const FORM = 'application/x-www-form-urlencoded';

interface TokenRequest {
  /** The form body, as sent. */
  form?: string;
  authorization?: string | null;
  contentType?: string;
  method?: string;
}

function requestToken(
  mock: ReturnType<typeof createMockService>,
  {
    form = 'grant_type=client_credentials',
    authorization = basicCredentials(client.clientId, client.clientSecret),
    contentType = FORM,
    method = 'POST',
  }: TokenRequest = {},
) {
  return send(mock, '/oauth/token', {
    method,
    authorization,
    ...(method === 'GET' ? {} : { raw: form }),
    headers: { 'content-type': contentType },
  });
}

const mockWith = (options: MockServiceOptions = {}) =>
  createMockService({ oauthClients: [client], ...options });

async function expectRefusal(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = await response.json();
  expect(body).toEqual({ error, error_description: expect.any(String) });
  return body.error_description as string;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('token endpoint: success (RFC 6749 section 4.4)', () => {
  it('answers 200 with a bearer token, uncacheable', async () => {
    const response = await requestToken(mockWith());

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      access_token: expect.stringMatching(/^at_[A-Za-z0-9]{32}$/),
      token_type: 'Bearer',
      expires_in: 3600,
    });
  });

  it('decodes HTTP Basic by RFC 6749 section 2.3.1: Base64, first colon, then form-urldecoding', async () => {
    const special = { clientId: 'my client:1', clientSecret: 'p@ss:wörd+&%' };
    const mock = createMockService({ oauthClients: [special] });
    const encoded = basicCredentials(special.clientId, special.clientSecret);

    expect(encoded).toBe(`Basic ${btoa('my+client%3A1:p%40ss%3Aw%C3%B6rd%2B%26%25')}`);
    expect((await requestToken(mock, { authorization: encoded })).status).toBe(200);
    // Lower-case scheme, percent-encoded space: the same credentials.
    const alike = `basic ${btoa('my%20client%3A1:p%40ss%3Aw%C3%B6rd%2B%26%25')}`;
    expect((await requestToken(mock, { authorization: alike })).status).toBe(200);
  });

  it('takes client_id and client_secret from the form instead', async () => {
    const response = await requestToken(mockWith(), {
      authorization: null,
      form: 'grant_type=client_credentials&client_id=reporting&client_secret=s3cret',
    });

    expect(response.status).toBe(200);
  });

  it('echoes the scope asked for, keeps the audience, ignores unknown parameters', async () => {
    const mock = createMockService({
      oauthClients: [{ ...client, scopes: ['projects:read', 'chat'] }],
    });
    const response = await requestToken(mock, {
      form: 'grant_type=client_credentials&scope=chat+projects%3Aread&audience=https%3A%2F%2Fapi&foo=bar&resource=',
      contentType: `${FORM}; charset=UTF-8`,
    });

    expect(await response.json()).toMatchObject({ scope: 'chat projects:read' });
    expect(mock.oauth.tokens()).toMatchObject([
      { clientId: 'reporting', scope: 'chat projects:read', audience: 'https://api' },
    ]);
  });

  it('accepts any client id with a non-empty secret by default, and none from an empty list', async () => {
    expect((await requestToken(createMockService())).status).toBe(200);
    await expectRefusal(
      await requestToken(createMockService({ oauthClients: [] })),
      401,
      'invalid_client',
    );
  });

  it('issues tokens of the configured lifetime', async () => {
    const response = await requestToken(mockWith({ tokenLifetimeMs: 90_000 }));

    expect((await response.json()).expires_in).toBe(90);
  });
});

describe('token endpoint: refusals (RFC 6749 section 5.2)', () => {
  const mock = mockWith();

  it('invalid_request: not a form body, a repeated or missing parameter, two client auth methods', async () => {
    const json = await requestToken(mock, {
      contentType: 'application/json',
      form: '{"grant_type":"client_credentials"}',
    });
    expect(await expectRefusal(json, 400, 'invalid_request')).toMatch(/x-www-form-urlencoded/);

    const repeated = await requestToken(mock, {
      form: 'grant_type=client_credentials&scope=a&scope=b',
    });
    expect(await expectRefusal(repeated, 400, 'invalid_request')).toMatch(/scope .*more than once/);

    // A parameter without a value counts as omitted.
    const missing = await requestToken(mock, { form: 'grant_type=&scope=a' });
    expect(await expectRefusal(missing, 400, 'invalid_request')).toMatch(/grant_type .*missing/);

    const both = await requestToken(mock, {
      form: 'grant_type=client_credentials&client_id=reporting&client_secret=s3cret',
    });
    expect(await expectRefusal(both, 400, 'invalid_request')).toMatch(/use one/);
  });

  it('invalid_client with a Basic challenge: unknown, wrong, missing or unreadable credentials', async () => {
    const cases: Array<[TokenRequest, RegExp]> = [
      [{ authorization: basicCredentials('reporting', 'wrong') }, /wrong secret/],
      [{ authorization: basicCredentials('nobody', 's3cret') }, /Unknown client/],
      [{ authorization: null }, /No client authentication/],
      [
        { authorization: null, form: 'grant_type=client_credentials&client_id=reporting' },
        /client_secret is missing/,
      ],
      [{ authorization: 'Basic not-base64!' }, /Malformed HTTP Basic/],
      [{ authorization: `Basic ${btoa('no-colon')}` }, /Malformed HTTP Basic/],
      [{ authorization: `Basic ${btoa('reporting:%E0%A4')}` }, /form-urlencoded/],
      [{ authorization: 'Bearer at_something' }, /HTTP Basic or client_id/],
    ];
    for (const [request, description] of cases) {
      const response = await requestToken(mock, request);
      expect(await expectRefusal(response, 401, 'invalid_client')).toMatch(description);
      expect(response.headers.get('www-authenticate')).toBe(
        'Basic realm="agentchat-mock", charset="UTF-8"',
      );
    }
  });

  it('invalid_client for a secret that was not form-urlencoded before Base64', async () => {
    const mock = createMockService({ oauthClients: [{ clientId: 'a', clientSecret: 'x+y' }] });

    // "x+y" sent raw decodes to "x y".
    const raw = await requestToken(mock, { authorization: `Basic ${btoa('a:x+y')}` });
    await expectRefusal(raw, 401, 'invalid_client');
    expect((await requestToken(mock, { authorization: basicCredentials('a', 'x+y') })).status).toBe(
      200,
    );
  });

  it('unsupported_grant_type for any grant but client_credentials', async () => {
    for (const grant of ['password', 'authorization_code', 'CLIENT_CREDENTIALS']) {
      const response = await requestToken(mock, { form: `grant_type=${grant}` });
      await expectRefusal(response, 400, 'unsupported_grant_type');
    }
  });

  it('invalid_scope for a malformed scope or one the client may not ask for', async () => {
    const limited = createMockService({ oauthClients: [{ ...client, scopes: ['read'] }] });
    for (const scope of ['read%20%20write', '%22quoted%22', 'back%5Cslash', '%20read']) {
      const response = await requestToken(limited, {
        form: `grant_type=client_credentials&scope=${scope}`,
      });
      expect(await expectRefusal(response, 400, 'invalid_scope')).toMatch(/section 3\.3/);
    }
    const refused = await requestToken(limited, {
      form: 'grant_type=client_credentials&scope=read+write',
    });
    expect(await expectRefusal(refused, 400, 'invalid_scope')).toContain('"write"');
    expect(limited.oauth.tokens()).toEqual([]);
  });

  it('answers 405 with Allow: POST to another method', async () => {
    const response = await requestToken(mock, { method: 'GET' });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('access tokens at the service', () => {
  async function issue(mock: ReturnType<typeof createMockService>): Promise<string> {
    return (await (await requestToken(mock)).json()).access_token;
  }

  it('accepts a token until it expires on the mock clock, Date.now(), then answers 401', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-01T00:00:00Z') });
    const mock = mockWith({ tokenLifetimeMs: 60_000 });
    const token = await issue(mock);
    expect(mock.oauth.tokens()).toMatchObject([
      { accessToken: token, issuedAt: Date.now(), expiresAt: Date.now() + 60_000, revoked: false },
    ]);

    vi.advanceTimersByTime(59_999);
    expect((await create(mock, { authorization: `Bearer ${token}` })).status).toBe(201);
    vi.advanceTimersByTime(1);
    const expired = await create(mock, { authorization: `Bearer ${token}` });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await errorOf(expired)).toMatchObject({
      type: 'authentication_error',
      message: 'The access token has expired; request a new one',
    });
  });

  it('refuses a token-shaped credential the mock never issued, even when any key is accepted', async () => {
    const mock = createMockService();
    const response = await create(mock, { authorization: `Bearer at_${'x'.repeat(32)}` });

    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toBe('Unknown access token');
    expect((await create(mock, { authorization: 'Bearer at_short' })).status).toBe(201);
  });

  it('keeps the API keys working beside tokens, and tokens working with an empty key list', async () => {
    const mock = mockWith({ apiKeys: [] });
    expect((await create(mock, { authorization: 'Bearer sk_any' })).status).toBe(401);
    expect((await create(mock, { authorization: `Bearer ${await issue(mock)}` })).status).toBe(201);

    const keyed = mockWith({ apiKeys: ['sk_test'] });
    expect((await create(keyed, { authorization: 'Bearer sk_test' })).status).toBe(201);
    expect((await create(keyed, { authorization: `Bearer ${await issue(keyed)}` })).status).toBe(
      201,
    );
  });

  it('revokes one token, expires all, and still issues new ones', async () => {
    const mock = mockWith();
    const [first, second] = [await issue(mock), await issue(mock)];

    expect(mock.oauth.revokeToken(first)).toBe(true);
    expect(mock.oauth.revokeToken('at_never_issued')).toBe(false);
    expect(() => mock.oauth.revokeToken(undefined as never)).toThrow(ConfigurationError);
    expect((await errorOf(await create(mock, { authorization: `Bearer ${first}` }))).message).toBe(
      'The access token was revoked',
    );
    expect((await create(mock, { authorization: `Bearer ${second}` })).status).toBe(201);

    mock.oauth.expireTokens();
    expect((await create(mock, { authorization: `Bearer ${second}` })).status).toBe(401);
    expect((await create(mock, { authorization: `Bearer ${await issue(mock)}` })).status).toBe(201);
  });

  it('hands out copies of the issued tokens', async () => {
    const mock = mockWith();
    await issue(mock);
    const [copy] = mock.oauth.tokens();
    if (copy) copy.revoked = true;

    expect(mock.oauth.tokens()[0]?.revoked).toBe(false);
  });

  it('counts token requests, refused and faulted ones included, until a reset', async () => {
    const mock = mockWith();
    expect(mock.oauth.tokenRequests()).toBe(0);
    await requestToken(mock);
    await requestToken(mock, { authorization: basicCredentials(client.clientId, 'wrong') });
    mock.enqueue({ kind: 'status', status: 503, path: '/oauth/token' });
    await requestToken(mock);
    await requestToken(mock, { method: 'GET' });
    await create(mock, { authorization: `Bearer ${await issue(mock)}` });

    expect(mock.oauth.tokenRequests()).toBe(5);
    mock.reset();
    expect(mock.oauth.tokenRequests()).toBe(0);
  });

  it('logs token requests with their form body', async () => {
    const mock = mockWith();
    await requestToken(mock, { form: 'grant_type=client_credentials&scope=read' });

    expect(mock.requestLog()).toMatchObject([
      {
        method: 'POST',
        path: '/api/oauth/token',
        body: 'grant_type=client_credentials&scope=read',
        status: 200,
        requestId: expect.stringMatching(/^req_/),
      },
    ]);
  });
});

describe('token endpoint options', () => {
  it('refuses an invalid client list or token lifetime', () => {
    expect(() =>
      createMockService({ oauthClients: [{ clientId: '', clientSecret: 'x' }] }),
    ).toThrow(ConfigurationError);
    expect(() =>
      createMockService({ oauthClients: [{ clientId: 'a', clientSecret: '' }] }),
    ).toThrow(/clientSecret of "a"/);
    expect(() =>
      createMockService({ oauthClients: [{ clientId: 'a', clientSecret: 'b', scopes: ['a b'] }] }),
    ).toThrow(/scope tokens/);
    expect(() => createMockService({ oauthClients: {} as never })).toThrow(
      'oauthClients must be an array',
    );
    for (const lifetime of [0, -1, 1.5, Number.NaN]) {
      expect(() => createMockService({ tokenLifetimeMs: lifetime })).toThrow(ConfigurationError);
    }
  });
});
