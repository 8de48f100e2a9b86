/**
 * A token endpoint's answer the provider will not use, against a real server on 127.0.0.1: a
 * token exchange answering another kind of token than the access token it asked for (RFC 8693
 * section 2.2.1), and an answer whose token type is not Bearer. The call fails with the error the
 * contract names, the token is never sent to the service, and the error never holds it.
 */
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  clientCredentials,
  ResponseValidationError,
  workloadIdentity,
} from '../../src/index.js';
import {
  freshToken,
  identityToken,
  issuedToken,
  startTokenServer,
  type TokenServer,
} from './token-server.js';

const TYPE = 'urn:ietf:params:oauth:token-type:';

let server: TokenServer;
beforeAll(async () => {
  server = await startTokenServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

function exchangingClient(): Client {
  const subject = identityToken();
  return new Client({
    baseUrl: server.baseUrl,
    apiKey: workloadIdentity({
      tokenUrl: server.tokenUrl,
      grant: 'token-exchange',
      identityToken: () => subject,
    }),
    maxRetries: 0,
  });
}

/** What the service was sent with the token: requests under /api carrying it. */
function serviceRequestsWith(token: string) {
  return server.requests.filter(
    ({ path, headers }) => path.startsWith('/api/') || headers.authorization?.includes(token),
  );
}

/** The error as anyone could come to see it: its message, its JSON, its inspection. */
function everythingIn(error: unknown): string {
  return [
    String(error),
    JSON.stringify(error),
    inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  ].join('\n');
}

describe('a token exchange', () => {
  it.each([
    ['a refresh token', `${TYPE}refresh_token`],
    ['an ID token', `${TYPE}id_token`],
    ['a SAML 1.1 assertion', `${TYPE}saml1`],
    ['a SAML 2.0 assertion', `${TYPE}saml2`],
    ['a type of its own', 'urn:example:token-type:session'],
    ['no issued_token_type', undefined],
    ['an issued_token_type that is no string', 42],
  ])('answering %s is refused, and the token never reaches the service', async (_name, type) => {
    const token = freshToken('wrong');
    const refreshToken = freshToken('rt');
    server.answer(
      issuedToken(token, {
        ...(type !== undefined && { issued_token_type: type }),
        refresh_token: refreshToken,
      }),
    );
    const error = await exchangingClient()
      .projects.get('proj_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ResponseValidationError);
    const refused = error as ResponseValidationError;
    expect(refused.issues.map(({ path }) => path)).toEqual(['issued_token_type']);
    expect(refused.message).toContain('issued_token_type: ');
    expect(refused.message).toContain('RFC 8693 section 2.2.1');
    expect(refused.message).toContain(
      type === undefined
        ? 'is missing'
        : typeof type === 'string'
          ? JSON.stringify(type)
          : 'not a string',
    );
    expect(refused.body).toMatchObject({
      access_token: '[redacted]',
      refresh_token: '[redacted]',
      token_type: 'Bearer',
    });
    expect(serviceRequestsWith(token)).toEqual([]);
    const seen = everythingIn(error);
    expect(seen).not.toContain(token);
    expect(seen).not.toContain(refreshToken);
  });

  it.each([
    ['an access token', `${TYPE}access_token`],
    ['a JWT', `${TYPE}jwt`],
  ])('answering %s is used', async (_name, type) => {
    const token = freshToken('good');
    server.answer(issuedToken(token, { issued_token_type: type }));
    await exchangingClient().projects.get('proj_1');
    const [call] = server.requests.filter(({ path }) => path.startsWith('/api/'));
    expect(call?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('refused once is asked again at the next call, which then succeeds', async () => {
    const good = freshToken('good');
    server.answer(
      issuedToken(freshToken('refresh'), { issued_token_type: `${TYPE}refresh_token` }),
      issuedToken(good, { issued_token_type: `${TYPE}access_token` }),
    );
    const client = exchangingClient();
    await expect(client.projects.get('proj_1')).rejects.toThrow(ResponseValidationError);
    await client.projects.get('proj_1');
    const calls = server.requests.filter(({ path }) => path.startsWith('/api/'));
    expect(calls.map(({ headers }) => headers.authorization)).toEqual([`Bearer ${good}`]);
  });
});

describe('the jwt-bearer grant and client credentials', () => {
  it('need no issued_token_type, and take any the server sends', async () => {
    server.answer(
      issuedToken(freshToken('a')),
      issuedToken(freshToken('b'), { issued_token_type: `${TYPE}jwt` }),
    );
    const subject = identityToken();
    const bearer = new Client({
      baseUrl: server.baseUrl,
      apiKey: workloadIdentity({ tokenUrl: server.tokenUrl, identityToken: () => subject }),
    });
    await bearer.projects.get('proj_1');
    const credentials = new Client({
      baseUrl: server.baseUrl,
      apiKey: clientCredentials({ tokenUrl: server.tokenUrl, clientId: 'c', clientSecret: 's' }),
    });
    await credentials.projects.get('proj_1');
    expect(server.requests.filter(({ path }) => path.startsWith('/api/'))).toHaveLength(2);
  });
});

describe('an answer whose token_type is not Bearer', () => {
  it('is refused with an error that holds neither its token nor the client secret', async () => {
    const token = freshToken('mac');
    const clientSecret = freshToken('secret');
    server.answer(
      issuedToken(token, { token_type: 'mac', id_token: freshToken('id'), echo: clientSecret }),
    );
    const client = new Client({
      baseUrl: server.baseUrl,
      apiKey: clientCredentials({ tokenUrl: server.tokenUrl, clientId: 'c', clientSecret }),
      maxRetries: 0,
    });
    const error = await client.projects.get('proj_1').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toContain('token_type: must be Bearer');
    expect((error as ResponseValidationError).body).toMatchObject({
      access_token: '[redacted]',
      id_token: '[redacted]',
      echo: '[redacted]',
      token_type: 'mac',
    });
    expect(serviceRequestsWith(token)).toEqual([]);
    const seen = everythingIn(error);
    expect(seen).not.toContain(token);
    expect(seen).not.toContain(clientSecret);
  });
});
