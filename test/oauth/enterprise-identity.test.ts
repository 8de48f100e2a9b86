/**
 * Client credentials against a real authorization server (oidc-provider on 127.0.0.1): client
 * secrets by Basic and in the form, RFC 8707 resources, issuer discovery and its mix-up defence,
 * private_key_jwt with a PEM and a JWK, and workload identity's assertion callback.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  type ClientCredentialsOptions,
  clientCredentials,
  OAuthError,
  RedirectError,
  ResponseTooLargeError,
} from '../../src/index.js';
import {
  type AuthorizationServer,
  makeClientKey,
  serverScope,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { leaksOf, recordingLogger } from '../helpers/reliability.js';

let server: AuthorizationServer;
beforeAll(async () => {
  server = await startAuthorizationServer();
});
afterAll(() => server.close());

/** Asks a provider for a token as a client would before a call. */
const tokenOf = (apiKey: ReturnType<typeof clientCredentials>, rejected?: string) =>
  Promise.resolve(apiKey(rejected === undefined ? {} : { rejected }));

/** The provider's failure, as a call would see it. */
const failureOf = (apiKey: ReturnType<typeof clientCredentials>) =>
  tokenOf(apiKey).then(
    () => undefined,
    (error: unknown) => error,
  );

/** A service that must never be reached: the number of requests it got. */
function unreachableService() {
  let requests = 0;
  const fetch: typeof globalThis.fetch = async () => {
    requests++;
    return new Response('{}', { status: 500 });
  };
  return { fetch, requests: () => requests };
}

describe('client secrets', () => {
  it('authenticates by HTTP Basic with a secret holding : + / = %', async () => {
    const before = server.requests.length;
    const apiKey = clientCredentials({ tokenUrl: server.tokenUrl, ...server.secretClient });
    expect(await tokenOf(apiKey)).toMatch(/^[\w-]+$/);
    const [request] = server.requests.slice(before);
    expect(request).toMatchObject({ authorizationScheme: 'Basic', granted: true });
    expect(request?.params.client_secret).toBeUndefined();
  });

  it('authenticates in the form with client_secret_post', async () => {
    const before = server.requests.length;
    const apiKey = clientCredentials({
      tokenUrl: server.tokenUrl,
      ...server.secretClient,
      authMethod: 'client_secret_post',
    });
    await tokenOf(apiKey);
    const [request] = server.requests.slice(before);
    expect(request).toMatchObject({ authorizationScheme: undefined, granted: true });
    expect(request?.params).toMatchObject({ client_id: server.secretClient.clientId });
  });

  it('asks for a resource and gets a JWT access token whose aud is that resource', async () => {
    const apiKey = clientCredentials({
      tokenUrl: server.tokenUrl,
      ...server.secretClient,
      scope: serverScope,
      resource: server.resource,
    });
    const claims = decodeJwt(await tokenOf(apiKey));
    expect(claims).toMatchObject({ aud: server.resource, client_id: server.secretClient.clientId });
  });
});

describe('issuer discovery', () => {
  it('finds the token endpoint from the metadata, and reads it once for the provider', async () => {
    const before = server.paths.length;
    const apiKey = clientCredentials({ issuer: server.issuer, ...server.secretClient });
    const first = await tokenOf(apiKey);
    // The service refused it: a second token request, the metadata not read again.
    const second = await tokenOf(apiKey, first);
    expect(second).not.toBe(first);
    expect(server.paths.slice(before)).toEqual([
      '/.well-known/oauth-authorization-server',
      '/token',
      '/token',
    ]);
  });

  it('refuses a metadata document naming another issuer, sending nothing', async () => {
    // A server whose metadata claims to be the real one: the mix-up attack.
    const impostor = await serveJson((origin) => ({
      issuer: server.issuer,
      token_endpoint: `${origin}/token`,
    }));
    const service = unreachableService();
    const before = server.paths.length;
    try {
      const apiKey = clientCredentials({ issuer: impostor.origin, ...server.secretClient });
      const client = new Client({
        apiKey,
        baseUrl: 'https://service.test/api',
        fetch: service.fetch,
      });
      const error = await client.projects.get('proj_1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).message).toContain(`"${server.issuer}"`);
      expect((error as OAuthError).message).toContain(`"${impostor.origin}"`);
      expect(impostor.paths).toEqual(['/.well-known/oauth-authorization-server']);
      expect(service.requests()).toBe(0);
      expect(server.paths.length).toBe(before);
    } finally {
      await impostor.close();
    }
  });

  it('falls back to OpenID discovery, and reads the metadata again after a failure', async () => {
    let fail = true;
    const openid = await serveJson((origin, path) => {
      if (path !== '/tenant/.well-known/openid-configuration') return undefined;
      if (fail) return { issuer: 'https://elsewhere.test' };
      return { issuer: `${origin}/tenant`, token_endpoint: server.tokenUrl };
    });
    try {
      const apiKey = clientCredentials({
        issuer: `${openid.origin}/tenant`,
        ...server.secretClient,
      });
      expect(await failureOf(apiKey)).toBeInstanceOf(OAuthError);
      fail = false;
      expect(await tokenOf(apiKey)).toMatch(/^[\w-]+$/);
      expect(openid.paths).toEqual([
        '/.well-known/oauth-authorization-server/tenant',
        '/tenant/.well-known/openid-configuration',
        '/.well-known/oauth-authorization-server/tenant',
        '/tenant/.well-known/openid-configuration',
      ]);
    } finally {
      await openid.close();
    }
  });
});

describe('issuer discovery through the hardened transport', () => {
  /** A server answering every path with `answer`, recording the paths asked. */
  async function serveRaw(answer: (res: ServerResponse) => void) {
    const paths: string[] = [];
    const http = createServer((req, res) => {
      paths.push(req.url ?? '');
      answer(res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const close = () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    return { origin, paths, close };
  }

  it('follows no redirect from a metadata URI', async () => {
    const redirecting = await serveRaw((res) => {
      res.writeHead(302, { location: `${server.issuer}/.well-known/oauth-authorization-server` });
      res.end();
    });
    const before = server.paths.length;
    try {
      const apiKey = clientCredentials({ issuer: redirecting.origin, ...server.secretClient });
      expect(await failureOf(apiKey)).toBeInstanceOf(RedirectError);
      expect(redirecting.paths).toEqual(['/.well-known/oauth-authorization-server']);
      expect(server.paths.length).toBe(before);
    } finally {
      await redirecting.close();
    }
  });

  it('stops reading a metadata document past its cap', async () => {
    const endless = await serveRaw((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"issuer":"x","padding":"${'a'.repeat(300_000)}"}`);
    });
    try {
      const apiKey = clientCredentials({ issuer: endless.origin, ...server.secretClient });
      expect(await failureOf(apiKey)).toBeInstanceOf(ResponseTooLargeError);
    } finally {
      await endless.close();
    }
  });

  it('reads at most 64 KiB of a metadata document', async () => {
    // 80 KiB: under any cap of 256 KiB, over the 64 KiB that token requests and discovery share.
    const long = await serveRaw((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"issuer":"x","padding":"${'a'.repeat(80 * 1024)}"}`);
    });
    try {
      const apiKey = clientCredentials({ issuer: long.origin, ...server.secretClient });
      expect(await failureOf(apiKey)).toBeInstanceOf(ResponseTooLargeError);
    } finally {
      await long.close();
    }
  });

  it("refuses an https issuer's plain-http token endpoint off loopback, sending nothing", async () => {
    const issuer = 'https://login.example.test/tenant';
    const asked: string[] = [];
    // The issuer's side as a custom fetch: its metadata names a token endpoint on plain http.
    const fetch: typeof globalThis.fetch = async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      asked.push(url);
      return url.includes('/.well-known/')
        ? Response.json({ issuer, token_endpoint: 'http://login.example.test/tenant/token' })
        : new Response('{}', { status: 500 });
    };
    const apiKey = clientCredentials({ issuer, fetch, ...server.secretClient });
    const error = await failureOf(apiKey);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).message).toContain(
      'names a token_endpoint on plain http, "http://login.example.test/tenant/token"',
    );
    expect(asked).toEqual([
      'https://login.example.test/.well-known/oauth-authorization-server/tenant',
    ]);
    expect(inspect(error)).not.toContain(server.secretClient.clientSecret);
  });

  it('is an OAuthError naming both URIs when neither has a document', async () => {
    const empty = await serveJson(() => undefined);
    try {
      const apiKey = clientCredentials({ issuer: `${empty.origin}/realm`, ...server.secretClient });
      const error = await failureOf(apiKey);
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).message).toContain(
        `${empty.origin}/.well-known/oauth-authorization-server/realm (status 404)`,
      );
      expect((error as OAuthError).message).toContain(
        `${empty.origin}/realm/.well-known/openid-configuration (status 404)`,
      );
    } finally {
      await empty.close();
    }
  });
});

describe('private_key_jwt', () => {
  const keyOptions = (privateKey: ClientCredentialsOptions['privateKey']) => ({
    issuer: server.issuer,
    clientId: server.keyClient.clientId,
    privateKey,
    keyId: server.keyClient.keyId,
  });

  it('signs a fresh assertion per token request with a PEM', async () => {
    const before = server.requests.length;
    const apiKey = clientCredentials(keyOptions(server.keyClient.key.pem));
    const first = await tokenOf(apiKey);
    await tokenOf(apiKey, first);
    const requests = server.requests.slice(before);
    expect(requests.map((r) => r.granted)).toEqual([true, true]);
    const [one, two] = requests.map((r) => decodeJwt(String(r.params.client_assertion)));
    expect(one).toMatchObject({
      iss: server.keyClient.clientId,
      sub: server.keyClient.clientId,
      aud: server.issuer,
    });
    expect(one?.jti).not.toBe(two?.jti);
    expect((one?.exp ?? 0) - (one?.iat ?? 0)).toBeLessThanOrEqual(300);
    expect(requests[0]?.params.client_assertion_type).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
  });

  it('signs with a JWK, to the token endpoint when there is no issuer', async () => {
    const before = server.requests.length;
    const apiKey = clientCredentials({
      ...keyOptions(server.keyClient.key.jwk),
      issuer: undefined,
      tokenUrl: server.tokenUrl,
      authMethod: 'private_key_jwt',
    });
    await tokenOf(apiKey);
    const [request] = server.requests.slice(before);
    expect(request?.granted).toBe(true);
    expect(decodeJwt(String(request?.params.client_assertion)).aud).toBe(server.tokenUrl);
  });

  it('is refused invalid_client with the wrong key, which no error, log or inspection shows', async () => {
    const wrong = await makeClientKey();
    const apiKey = clientCredentials(keyOptions(wrong.pem));
    const logger = recordingLogger();
    const service = unreachableService();
    const client = new Client({
      apiKey,
      baseUrl: 'https://service.test/api',
      fetch: service.fetch,
      logger,
      logLevel: 'debug',
    });
    const error = await client.projects.get('proj_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 });
    expect(service.requests()).toBe(0);
    // A line of the key's Base64 body, and the JWK's private exponent.
    const pemLine = wrong.pem.split('\n')[3] ?? '';
    expect(pemLine.length).toBeGreaterThan(40);
    for (const secret of [pemLine, String(wrong.jwk.d)]) {
      expect(leaksOf([error, apiKey, logger.lines], secret)).toEqual([]);
      expect(JSON.stringify({ error, apiKey })).not.toContain(secret);
    }
    expect(inspect(apiKey)).not.toContain('PRIVATE KEY');
  });
});

describe('clientAssertion (workload identity)', () => {
  /** What a platform hands out: here a JWT the registered key signs, as a federated token. */
  const platformToken = async () => {
    const { importPKCS8 } = await import('jose');
    const key = await importPKCS8(server.keyClient.key.pem, 'RS256');
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: server.keyClient.keyId })
      .setIssuer(server.keyClient.clientId)
      .setSubject(server.keyClient.clientId)
      .setAudience(server.issuer)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime('2m')
      .sign(key);
  };

  it('asks the callback once per token request, and sends no secret', async () => {
    const before = server.requests.length;
    let asked = 0;
    const apiKey = clientCredentials({
      issuer: server.issuer,
      clientId: server.keyClient.clientId,
      clientAssertion: () => {
        asked++;
        return platformToken();
      },
    });
    const first = await tokenOf(apiKey);
    await Promise.all([tokenOf(apiKey), tokenOf(apiKey)]);
    expect(asked).toBe(1);
    await tokenOf(apiKey, first);
    expect(asked).toBe(2);
    const requests = server.requests.slice(before);
    expect(requests.map((r) => r.granted)).toEqual([true, true]);
    expect(requests.map((r) => r.authorizationScheme)).toEqual([undefined, undefined]);
    expect(requests[0]?.params.client_secret).toBeUndefined();
  });

  it.each([
    ['rejects', () => Promise.reject(new Error('token file missing: eyJsecret'))],
    ['answers a blank string', () => '  \n'],
  ])('fails with OAuthError when the callback %s, sending nothing', async (_, clientAssertion) => {
    const before = server.paths.length;
    const apiKey = clientCredentials({
      tokenUrl: server.tokenUrl,
      clientId: server.keyClient.clientId,
      clientAssertion: clientAssertion as () => Promise<string>,
    });
    const error = await failureOf(apiKey);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ status: 0 });
    expect((error as Error).message).not.toContain('eyJsecret');
    expect(server.paths.length).toBe(before);
  });
});

/**
 * A tiny JSON server on 127.0.0.1 for what oidc-provider would never serve: answers `body(origin,
 * path)`, or 404 when that is `undefined`, and records the paths asked.
 */
async function serveJson(body: (origin: string, path: string) => object | undefined) {
  const paths: string[] = [];
  let origin = '';
  const http: Server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const answer = body(origin, req.url ?? '');
    res.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer ?? { error: 'not_found' }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
