/**
 * Workload identity federation against a real authorization server (oidc-provider with the
 * jwt-bearer and token-exchange grants registered) that trusts a platform issuer of its own on
 * 127.0.0.1, and a service that accepts only the access tokens that server signs. Each identity
 * source runs against a stand-in of its platform's endpoint.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Client,
  ConfigurationError,
  githubActionsIdentityToken,
  googleIdentityToken,
  type IdentityTokenSource,
  identityTokenFile,
  OAuthError,
  type WorkloadIdentityOptions,
  workloadIdentity,
} from '../../src/index.js';
import { type AuthorizationServer, serverScope } from '../helpers/authorization-server.js';
import { WORKLOAD_CLIENT_ID } from '../helpers/federation-grants.js';
import { leaksOf, recordingLogger } from '../helpers/reliability.js';
import type { VerifyingService } from '../helpers/verifying-service.js';
import {
  GITHUB_TOKEN_PATH,
  METADATA_IDENTITY_PATH,
  startWorkloadStack,
  WORKLOAD_AUDIENCE,
  WORKLOAD_SUBJECT,
  type WorkloadPlatform,
  type WorkloadStack,
} from '../helpers/workload-platform.js';

const AUDIENCE = WORKLOAD_AUDIENCE;

let stack: WorkloadStack;
let platform: WorkloadPlatform;
let server: AuthorizationServer;
let service: VerifyingService;
let scratch: string;
beforeAll(async () => {
  stack = await startWorkloadStack();
  ({ platform, server, service } = stack);
  scratch = await mkdtemp(join(tmpdir(), 'agentchat-identity-'));
});
afterAll(async () => {
  await stack?.close();
  await rm(scratch, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
  platform.failWith(undefined);
});

/** What the platform would hand this workload: a fresh token for the trusted audience. */
const platformToken: IdentityTokenSource = () =>
  platform.sign({ sub: WORKLOAD_SUBJECT, aud: AUDIENCE });

/** The options every test starts from: the trusted platform's token, for the service's resource. */
const federated = (options: WorkloadIdentityOptions = {}): WorkloadIdentityOptions => ({
  issuer: server.issuer,
  clientId: WORKLOAD_CLIENT_ID,
  identityToken: platformToken,
  scope: serverScope,
  resource: server.resource,
  ...options,
});

/** A client of the service that accepts only the authorization server's tokens. */
const clientWith = (apiKey: ReturnType<typeof workloadIdentity>, logger = recordingLogger()) =>
  new Client({ apiKey, baseUrl: service.baseUrl, logger, logLevel: 'debug' });

const tokenOf = (apiKey: ReturnType<typeof workloadIdentity>, rejected?: string) =>
  Promise.resolve(apiKey(rejected === undefined ? {} : { rejected }));

const failureOf = (apiKey: ReturnType<typeof workloadIdentity>) =>
  tokenOf(apiKey).then(
    () => undefined,
    (error: unknown) => error,
  );

/** How many token requests reached the authorization server since `before` (of its paths). */
const tokenRequestsSince = (before: number) =>
  server.paths.slice(before).filter((path) => path === '/token').length;

/** The token requests made since `before`, as the authorization server read them. */
const requestsSince = (before: number) => server.requests.slice(before);

describe('grants against oidc-provider', () => {
  it('trades the platform token by jwt-bearer for a token the service accepts', async () => {
    const before = server.requests.length;
    const accepted = service.counts.accepted;
    const client = clientWith(workloadIdentity(federated()));
    const project = await client.projects.create({ name: 'Federated', agentId: 'agent_1' });
    expect(project.name).toBe('Federated');
    expect(service.counts.accepted).toBe(accepted + 1);
    const [request] = requestsSince(before);
    expect(request).toMatchObject({ granted: true, authorizationScheme: undefined });
    expect(request?.params).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      client_id: WORKLOAD_CLIENT_ID,
      scope: serverScope,
      resource: server.resource,
    });
    expect(decodeJwt(String(request?.params.assertion))).toMatchObject({
      iss: platform.issuer,
      sub: WORKLOAD_SUBJECT,
    });
    expect(server.federation.at(-1)).toMatchObject({ grant: 'jwt-bearer', trusted: true });
  });

  it('trades it by token exchange, asking for an access token', async () => {
    const before = server.requests.length;
    const client = clientWith(workloadIdentity(federated({ grant: 'token-exchange' })));
    await expect(
      client.projects.create({ name: 'Exchanged', agentId: 'a' }),
    ).resolves.toMatchObject({ name: 'Exchanged' });
    const [request] = requestsSince(before);
    expect(request?.granted).toBe(true);
    expect(request?.params).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
    expect(request?.params.assertion).toBeUndefined();
    expect(server.federation.at(-1)).toMatchObject({ grant: 'token-exchange', trusted: true });
  });

  it('asks the source once per token request, and again after the service refuses the token', async () => {
    let asked = 0;
    const apiKey = workloadIdentity(
      federated({
        tokenUrl: server.tokenUrl,
        issuer: undefined,
        identityToken: (context) => {
          asked++;
          return platformToken(context);
        },
      }),
    );
    const [first] = await Promise.all([tokenOf(apiKey), tokenOf(apiKey), tokenOf(apiKey)]);
    expect(asked).toBe(1);
    expect(await tokenOf(apiKey)).toBe(first);
    const second = await tokenOf(apiKey, first);
    expect(second).not.toBe(first);
    expect(asked).toBe(2);
  });
  it('shares one token across providers through a fleet cache, keyed apart from client credentials', async () => {
    const store = new Map<string, string>();
    const cache = {
      get: (key: string) => store.get(key),
      set: (key: string, value: string) => {
        store.set(key, value);
      },
    };
    const before = server.requests.length;
    const first = await tokenOf(workloadIdentity(federated({ cache })));
    expect(await tokenOf(workloadIdentity(federated({ cache })))).toBe(first);
    expect(requestsSince(before)).toHaveLength(1);
    // The same settings by token exchange never take the jwt-bearer grant's token.
    expect(await tokenOf(workloadIdentity(federated({ cache, grant: 'token-exchange' })))).not.toBe(
      first,
    );
    expect(store.size).toBe(2);
  });
});

describe('refusals', () => {
  it.each(['jwt-bearer', 'token-exchange'] as const)(
    'points to clientId when the server refuses a %s request that names no client',
    async (grant) => {
      const { clientId: _left, ...anonymous } = federated({ grant });
      const before = server.requests.length;
      const accepted = service.counts.accepted;
      const error = await clientWith(workloadIdentity(anonymous))
        .projects.get('proj_1')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      const refused = error as OAuthError;
      // oidc-provider's own words, kept as they came, and the option that mends it.
      expect(refused).toMatchObject({ status: 400, error: 'invalid_request' });
      expect(refused.errorDescription).toMatch(/client authentication/);
      expect(refused.message).toContain(`invalid_request: ${refused.errorDescription}`);
      expect(refused.message).toContain(
        'no clientId was given; pass the clientId option (or set AGENTCHAT_CLIENT_ID)',
      );
      expect(requestsSince(before)).toHaveLength(1);
      expect(requestsSince(before)[0]?.params.client_id).toBeUndefined();
      expect(service.counts.accepted).toBe(accepted);
    },
  );

  it('gives no clientId hint when a clientId was given', async () => {
    const error = await clientWith(workloadIdentity(federated({ clientId: 'not-registered-here' })))
      .projects.get('proj_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).message).not.toContain('no clientId was given');
  });

  it('is OAuthError invalid_grant for a token the server does not trust, never shown', async () => {
    // A token signed by a key the platform's key set does not hold.
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: WORKLOAD_SUBJECT, aud: AUDIENCE })
      .setProtectedHeader({ alg: 'ES256', kid: 'platform-1' })
      .setIssuer(platform.issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const apiKey = workloadIdentity(federated({ identityToken: () => forged }));
    const logger = recordingLogger();
    const refused = service.counts.refused;
    const accepted = service.counts.accepted;
    const error = await clientWith(apiKey, logger)
      .projects.get('proj_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ error: 'invalid_grant', status: 400 });
    expect(server.federation.at(-1)).toMatchObject({ trusted: false });
    expect(service.counts).toEqual({ refused, accepted });
    const signature = forged.split('.')[2] ?? '';
    expect(signature.length).toBeGreaterThan(40);
    expect(leaksOf([error, apiKey, logger.lines], signature)).toEqual([]);
    expect(inspect(apiKey)).not.toContain(signature);
  });

  it('refuses a token for another audience the same way', async () => {
    const apiKey = workloadIdentity(
      federated({ identityToken: () => platform.sign({ sub: WORKLOAD_SUBJECT, aud: 'other' }) }),
    );
    expect(await failureOf(apiKey)).toMatchObject({ error: 'invalid_grant' });
  });

  it.each([
    ['a path', '/var/run/secrets/tokens/agentchat'],
    ['two parts', 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0'],
    ['a header that is not JSON', 'bm90LWpzb24.eyJzdWIiOiJ4In0.c2ln'],
  ])('refuses an identity token that cannot be a JWT (%s), sending nothing', async (_, token) => {
    const before = server.paths.length;
    const error = await failureOf(workloadIdentity(federated({ identityToken: () => token })));
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as Error).message).toContain('cannot be a JWT');
    expect((error as Error).message).not.toContain(token);
    expect(tokenRequestsSince(before)).toBe(0);
  });

  it('sends an opaque subject token when its type says it is no JWT, for the server to judge', async () => {
    const before = server.requests.length;
    const apiKey = workloadIdentity(
      federated({
        grant: 'token-exchange',
        subjectTokenType: 'urn:ietf:params:oauth:token-type:access_token',
        identityToken: () => 'opaque-platform-token',
      }),
    );
    // This server exchanges JWTs only: its refusal, not the SDK's.
    expect(await failureOf(apiKey)).toMatchObject({ error: 'invalid_request', status: 400 });
    expect(requestsSince(before)[0]?.params).toMatchObject({
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
  });

  it('fails with OAuthError when a source throws, quoting nothing it said', async () => {
    const before = server.paths.length;
    const apiKey = workloadIdentity(
      federated({
        identityToken: () => {
          throw new Error('vault said eyJsecret');
        },
      }),
    );
    const error = await failureOf(apiKey);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as Error).message).toContain('the identityToken source failed (Error)');
    expect((error as Error).message).not.toContain('eyJsecret');
    expect(tokenRequestsSince(before)).toBe(0);
  });
});

describe('identityTokenFile', () => {
  it('reads the file afresh for each token request, as a rotated token', async () => {
    const path = join(scratch, 'rotated-token');
    const first = await platformToken({});
    await writeFile(path, `${first}\n`);
    const before = server.requests.length;
    const apiKey = workloadIdentity(federated({ identityToken: identityTokenFile(path) }));
    const token = await tokenOf(apiKey);
    const rotated = await platformToken({});
    await writeFile(path, rotated);
    await tokenOf(apiKey, token);
    expect(requestsSince(before).map((r) => r.params.assertion)).toEqual([first, rotated]);
  });

  it('names the path, the reason and the projected volume when the file is missing', async () => {
    const path = join(scratch, 'never-mounted');
    const before = server.paths.length;
    const error = await failureOf(
      workloadIdentity(federated({ identityToken: identityTokenFile(path) })),
    );
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as Error).message).toContain(`${path} cannot be read (ENOENT)`);
    expect((error as Error).message).toContain('projected service-account token volume');
    expect(tokenRequestsSince(before)).toBe(0);
  });

  it('is what workloadIdentity() reads from AGENTCHAT_IDENTITY_TOKEN_FILE, with the issuer and client id', async () => {
    const path = join(scratch, 'env-token');
    await writeFile(path, await platformToken({}));
    vi.stubEnv('AGENTCHAT_IDENTITY_TOKEN_FILE', path);
    vi.stubEnv('AGENTCHAT_ISSUER', server.issuer);
    vi.stubEnv('AGENTCHAT_CLIENT_ID', WORKLOAD_CLIENT_ID);
    vi.stubEnv('AGENTCHAT_SCOPE', serverScope);
    vi.stubEnv('AGENTCHAT_RESOURCE', server.resource);
    const before = server.requests.length;
    const project = await clientWith(workloadIdentity()).projects.create({
      name: 'From env',
      agentId: 'a',
    });
    expect(project.name).toBe('From env');
    expect(requestsSince(before)[0]?.params.client_id).toBe(WORKLOAD_CLIENT_ID);
  });

  it('is a ConfigurationError for an empty path', () => {
    expect(() => identityTokenFile('')).toThrow(ConfigurationError);
  });
});

describe('githubActionsIdentityToken', () => {
  const stubRunner = () => {
    for (const [name, value] of Object.entries(platform.githubEnv)) vi.stubEnv(name, value);
  };

  it("asks the runner with its bearer for the audience's token, through the provider's fetch and fetchOptions", async () => {
    stubRunner();
    // Every fetch of the provider, the runner's included, with the fetchOptions it got.
    const seen: { path: string; route: unknown }[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push({ path: url.pathname, route: (init as { route?: unknown } | undefined)?.route });
      return globalThis.fetch(input, init);
    };
    const before = platform.requests.length;
    const apiKey = workloadIdentity(
      federated({
        identityToken: githubActionsIdentityToken({ audience: AUDIENCE }),
        fetch,
        fetchOptions: { route: 'corporate-proxy' },
      }),
    );
    const project = await clientWith(apiKey).projects.create({ name: 'CI', agentId: 'a' });
    expect(project.name).toBe('CI');
    const [request] = platform.requests.slice(before);
    expect(request).toMatchObject({
      path: GITHUB_TOKEN_PATH,
      query: { 'api-version': '2.0', audience: AUDIENCE },
    });
    expect(request?.headers.authorization).toBe(
      `Bearer ${platform.githubEnv.ACTIONS_ID_TOKEN_REQUEST_TOKEN}`,
    );
    expect(seen.map((each) => each.path)).toEqual([
      '/.well-known/oauth-authorization-server',
      GITHUB_TOKEN_PATH,
      '/token',
    ]);
    expect(seen.every((each) => each.route === 'corporate-proxy')).toBe(true);
  });

  it('is a ConfigurationError naming id-token: write when the runner gave no variables', () => {
    vi.stubEnv('ACTIONS_ID_TOKEN_REQUEST_URL', '');
    vi.stubEnv('ACTIONS_ID_TOKEN_REQUEST_TOKEN', '');
    expect(() => githubActionsIdentityToken({ audience: AUDIENCE })).toThrow(
      /ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set: .*permissions: id-token: write/,
    );
  });

  it('is OAuthError naming id-token: write when the runner refuses, the request token never shown', async () => {
    stubRunner();
    platform.failWith(403);
    const apiKey = workloadIdentity(
      federated({ identityToken: githubActionsIdentityToken({ audience: AUDIENCE }) }),
    );
    const error = await failureOf(apiKey);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ status: 403 });
    expect((error as Error).message).toContain('permissions: id-token: write');
    expect(leaksOf([error, apiKey], platform.githubEnv.ACTIONS_ID_TOKEN_REQUEST_TOKEN)).toEqual([]);
  });
});

describe('googleIdentityToken', () => {
  it('asks the metadata server at GCE_METADATA_HOST for a full token for the audience', async () => {
    vi.stubEnv('GCE_METADATA_HOST', platform.host);
    const before = platform.requests.length;
    const apiKey = workloadIdentity(
      federated({
        grant: 'token-exchange',
        identityToken: googleIdentityToken({ audience: AUDIENCE }),
      }),
    );
    const project = await clientWith(apiKey).projects.create({ name: 'Cloud Run', agentId: 'a' });
    expect(project.name).toBe('Cloud Run');
    const [request] = platform.requests.slice(before);
    expect(request).toMatchObject({
      path: METADATA_IDENTITY_PATH,
      query: { audience: AUDIENCE, format: 'full' },
    });
    expect(request?.headers['metadata-flavor']).toBe('Google');
  });

  it('is OAuthError naming where it works when no metadata server answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    vi.stubEnv('GCE_METADATA_HOST', `127.0.0.1:${port}`);
    const error = await failureOf(
      workloadIdentity(federated({ identityToken: googleIdentityToken({ audience: AUDIENCE }) })),
    );
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ status: 0 });
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).toContain('GCE_METADATA_HOST');
  });

  it('refuses an answer without Metadata-Flavor: Google', async () => {
    const token = await platformToken({});
    const impostor = createServer((_req, res) => res.end(token));
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    try {
      vi.stubEnv('GCE_METADATA_HOST', `127.0.0.1:${(impostor.address() as AddressInfo).port}`);
      const error = await failureOf(
        workloadIdentity(federated({ identityToken: googleIdentityToken({ audience: AUDIENCE }) })),
      );
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as Error).message).toContain('lacks Metadata-Flavor: Google');
    } finally {
      impostor.closeAllConnections();
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it('is a ConfigurationError without an audience, or with a GCE_METADATA_HOST that is no host', () => {
    expect(() => googleIdentityToken({} as never)).toThrow(/audience: required/);
    vi.stubEnv('GCE_METADATA_HOST', 'metadata/path?x');
    expect(() => googleIdentityToken({ audience: AUDIENCE })).toThrow(
      /GCE_METADATA_HOST must be a host/,
    );
  });
});

describe('a platform endpoint that misbehaves', () => {
  /** Serves `answer` as the metadata server would be reached, and counts what reached `elsewhere`. */
  async function metadataServer(answer: (res: ServerResponse) => void) {
    const server = createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    vi.stubEnv('GCE_METADATA_HOST', `127.0.0.1:${(server.address() as AddressInfo).port}`);
    return {
      source: googleIdentityToken({ audience: AUDIENCE }),
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('is followed through no redirect', async () => {
    const before = platform.requests.length;
    const served = await metadataServer((res) => {
      res.writeHead(302, { location: `${platform.issuer}${METADATA_IDENTITY_PATH}?audience=x` });
      res.end();
    });
    try {
      const error = await failureOf(workloadIdentity(federated({ identityToken: served.source })));
      expect(error).toBeInstanceOf(OAuthError);
      expect(error).toMatchObject({ status: 302 });
      expect(platform.requests.length).toBe(before);
    } finally {
      await served.close();
    }
  });

  it('is read no further than 64 KiB', async () => {
    const served = await metadataServer((res) => {
      res.writeHead(200, { 'metadata-flavor': 'Google' });
      res.end('a'.repeat(100_000));
    });
    try {
      const error = await failureOf(workloadIdentity(federated({ identityToken: served.source })));
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as Error).message).toContain('an answer over 65536 bytes');
    } finally {
      await served.close();
    }
  });

  it('is OAuthError when the GitHub runner answers no token', async () => {
    const runner = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"value":42}');
    });
    await new Promise<void>((resolve) => runner.listen(0, '127.0.0.1', resolve));
    try {
      vi.stubEnv(
        'ACTIONS_ID_TOKEN_REQUEST_URL',
        `http://127.0.0.1:${(runner.address() as AddressInfo).port}/token?api-version=2.0`,
      );
      vi.stubEnv('ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'request-token');
      const apiKey = workloadIdentity(
        federated({ identityToken: githubActionsIdentityToken({ audience: AUDIENCE }) }),
      );
      const error = await failureOf(apiKey);
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as Error).message).toContain('the runner answered no token');
    } finally {
      runner.closeAllConnections();
      await new Promise((resolve) => runner.close(resolve));
    }
  });
});

describe('options', () => {
  it.each([
    [{ identityToken: platformToken }, /tokenUrl: required/],
    [
      { issuer: 'https://auth.example.com' },
      /identityToken: required.*AGENTCHAT_IDENTITY_TOKEN_FILE/,
    ],
    [
      { issuer: 'https://auth.example.com', identityToken: platformToken, subjectTokenType: 'x' },
      /subjectTokenType: only sent with grant: 'token-exchange'/,
    ],
    [
      { issuer: 'https://auth.example.com', identityToken: 'file' as never },
      /identityToken: expected a function/,
    ],
    [
      { tokenUrl: 'ftp://x', identityToken: platformToken },
      /Invalid workloadIdentity options: tokenUrl/,
    ],
    [{ issuer: 'https://a.test', identityToken: platformToken, grant: 'saml' as never }, /grant/],
    [
      { issuer: 'https://a.test', identityToken: platformToken, fetchOptions: { headers: {} } },
      /fetchOptions.headers: use the headers option/,
    ],
  ])('refuses %o with a ConfigurationError', (options, message) => {
    vi.stubEnv('AGENTCHAT_IDENTITY_TOKEN_FILE', '');
    vi.stubEnv('AGENTCHAT_ISSUER', '');
    vi.stubEnv('AGENTCHAT_TOKEN_URL', '');
    expect(() => workloadIdentity(options as WorkloadIdentityOptions)).toThrow(ConfigurationError);
    expect(() => workloadIdentity(options as WorkloadIdentityOptions)).toThrow(message);
  });

  it('names the variable an option was read from', () => {
    vi.stubEnv('AGENTCHAT_TOKEN_URL', 'not a url');
    expect(() => workloadIdentity({ identityToken: platformToken })).toThrow(
      'tokenUrl (from AGENTCHAT_TOKEN_URL)',
    );
  });

  it('keeps no token of the platform in an inspected provider', async () => {
    const token = await platformToken({});
    const apiKey = workloadIdentity(federated({ identityToken: () => token }));
    await tokenOf(apiKey);
    expect(inspect(apiKey, { showHidden: true, depth: null })).not.toContain(token);
  });
});
