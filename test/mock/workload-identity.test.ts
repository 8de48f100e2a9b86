/**
 * Workload identity tried with no cloud: `workloadIdentity()` against the mock's token endpoint
 * trusting a local issuer (createLocalIssuer / startLocalIssuer), with both grants, in each way the
 * mock runs: msw's handlers in this process, startMockServer, and `agentchat-mock --trust-issuer`
 * as a process of its own. Every identity token the mock must not take is `invalid_grant`, its
 * description naming the check it failed.
 */
import { SignJWT } from 'jose';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  ConfigurationError,
  OAuthError,
  type WorkloadIdentityOptions,
  workloadIdentity,
} from '../../src/index.js';
import {
  createLocalIssuer,
  createMockService,
  type LocalIssuer,
  type LocalIssuerServer,
  type MockServer,
  startLocalIssuer,
  startMockServer,
  strictListen,
} from '../../src/testing/index.js';
import { contractProblems } from '../helpers/openapi-contract.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';

const SUBJECT = 'repo:acme/support-desk:ref:refs/heads/main';
const GRANTS = ['jwt-bearer', 'token-exchange'] as const;

/** A client whose token provider trades the issuer's identity tokens at `tokenUrl`. */
function federatedClient(
  baseUrl: string,
  issuer: LocalIssuer,
  options: Partial<WorkloadIdentityOptions> & { audience?: string } = {},
) {
  const tokenUrl = `${baseUrl}/oauth/token`;
  const { audience = tokenUrl, ...rest } = options;
  return new Client({
    baseUrl,
    maxRetries: 0,
    apiKey: workloadIdentity({
      tokenUrl,
      identityToken: () => issuer.signIdentityToken({ subject: SUBJECT, audience }),
      ...rest,
    }),
  });
}

/** The OAuthError a call fails with. */
async function oauthErrorOf(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return error as OAuthError;
}

describe('createMockService({ trustedIssuers }) with a local issuer, on msw', () => {
  let issuer: LocalIssuer;
  let stranger: LocalIssuer;
  let mock: ReturnType<typeof createMockService>;
  let server: ReturnType<typeof setupServer>;
  beforeAll(async () => {
    issuer = await createLocalIssuer();
    stranger = await createLocalIssuer({ issuer: 'https://stranger.agentchat.test' });
    mock = createMockService({ trustedIssuers: [issuer.issuer], apiKeys: [] });
    server = setupServer(...mock.handlers, ...issuer.handlers, ...stranger.handlers);
    strictListen(server);
  });
  afterEach(() => mock.reset());
  afterAll(() => server.close());

  it.each(GRANTS)(
    'trades an identity token with the %s grant, and the service takes the token',
    async (grant) => {
      const client = federatedClient(mock.baseUrl, issuer, { grant, clientId: 'support-desk' });

      const project = await client.projects.create({ name: 'Federated', agentId: 'agent_1' });

      expect(mock.projects()).toEqual([expect.objectContaining({ id: project.id })]);
      expect(mock.oauth.tokens()).toEqual([
        expect.objectContaining({
          grant,
          clientId: 'support-desk',
          identity: { issuer: issuer.issuer, subject: SUBJECT },
        }),
      ]);
      const [request] = mock.requestLog();
      const form = new URLSearchParams(request?.body as string);
      expect(form.get('grant_type')).toBe(`urn:ietf:params:oauth:grant-type:${grant}`);
    },
  );

  it('answers a token exchange with issued_token_type access_token, to the subject when no client is named', async () => {
    const tokenUrl = `${mock.baseUrl}/oauth/token`;
    const response = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: await issuer.signIdentityToken({ subject: SUBJECT, audience: tokenUrl }),
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      }),
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      token_type: 'Bearer',
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
    expect(mock.oauth.tokens()).toMatchObject([{ clientId: SUBJECT, grant: 'token-exchange' }]);
  });

  it('answers both grants, and their refusals, as docs/openapi.yaml describes', async () => {
    const tokenUrl = `${mock.baseUrl}/oauth/token`;
    const exchanges = [];
    for (const [grant, parameter] of [
      ['jwt-bearer', 'assertion'],
      ['token-exchange', 'subject_token'],
    ]) {
      for (const audience of [tokenUrl, 'https://elsewhere.test']) {
        const response = await fetch(tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: `urn:ietf:params:oauth:grant-type:${grant}`,
            [parameter as string]: await issuer.signIdentityToken({ subject: SUBJECT, audience }),
            subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
          }),
        });
        exchanges.push({
          method: 'POST',
          path: '/oauth/token',
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: await response.text(),
        });
      }
    }

    expect(exchanges.map(({ status }) => status)).toEqual([200, 400, 200, 400]);
    expect(await contractProblems(exchanges)).toEqual([]);
  });

  const refusals: Array<[string, (tokenUrl: string) => Promise<string>, RegExp]> = [
    [
      'an untrusted issuer',
      (tokenUrl) => stranger.signIdentityToken({ subject: SUBJECT, audience: tokenUrl }),
      /issuer \(iss\) is "https:\/\/stranger\.agentchat\.test", which the mock does not trust/,
    ],
    [
      'an expired token',
      (tokenUrl) =>
        issuer.signIdentityToken({
          subject: SUBJECT,
          audience: tokenUrl,
          issuedAt: Date.now() - 3_600_000,
        }),
      /has expired \(exp \d{4}-/,
    ],
    [
      'a wrong audience',
      () => issuer.signIdentityToken({ subject: SUBJECT, audience: 'https://elsewhere.test' }),
      /audience \(aud\) is \["https:\/\/elsewhere\.test"\]; the mock takes https:\/\/agentchat\.test\/api\/oauth\/token/,
    ],
    [
      'a key the issuer does not publish',
      async (tokenUrl) =>
        (await createLocalIssuer({ issuer: issuer.issuer })).signIdentityToken({
          subject: SUBJECT,
          audience: tokenUrl,
        }),
      /signature does not verify with the keys of the issuer https:\/\/issuer\.agentchat\.test/,
    ],
    [
      'a symmetric algorithm',
      (tokenUrl) =>
        new SignJWT({ sub: SUBJECT })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(issuer.issuer)
          .setAudience(tokenUrl)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!')),
      /not signed with an asymmetric algorithm/,
    ],
  ];

  describe.each(GRANTS)('with the %s grant', (grant) => {
    it.each(refusals)(
      'refuses %s with invalid_grant naming the check',
      async (_, sign, described) => {
        const tokenUrl = `${mock.baseUrl}/oauth/token`;
        const token = await sign(tokenUrl);
        const client = new Client({
          baseUrl: mock.baseUrl,
          maxRetries: 0,
          apiKey: workloadIdentity({ tokenUrl, grant, identityToken: () => token }),
        });

        const error = await oauthErrorOf(client.projects.create({ name: 'No', agentId: 'a' }));

        expect(error.error).toBe('invalid_grant');
        expect(error.errorDescription).toMatch(described);
        expect(error.status).toBe(400);
        expect(mock.projects()).toEqual([]);
        expect(mock.oauth.tokens()).toEqual([]);
      },
    );
  });

  it('says how to enable the grants when no issuer is trusted', async () => {
    const plain = createMockService({ baseUrl: 'https://plain.agentchat.test/api' });
    server.use(...plain.handlers);
    const error = await oauthErrorOf(
      federatedClient(plain.baseUrl, issuer).projects.create({ name: 'No', agentId: 'a' }),
    );

    expect(error.error).toBe('unsupported_grant_type');
    expect(error.errorDescription).toContain('--trust-issuer');
  });

  it('refuses options it cannot use, at once', async () => {
    expect(() => createMockService({ trustedIssuers: ['not a url'] })).toThrow(ConfigurationError);
    expect(() => createMockService({ trustedIssuers: [{ issuer: 'ftp://x.test' }] })).toThrow(
      /trustedIssuers\[0\]\.issuer must be an http\(s\) URL/,
    );
    expect(() => createMockService({ trustedIssuer: [issuer.issuer] } as never)).toThrow(
      /did you mean "trustedIssuers"\?/,
    );
    expect(() => createMockService({ audience: '' })).toThrow(
      /audience must be a non-empty string/,
    );
    await expect(
      issuer.signIdentityToken({ subject: 's', audience: 'a', claims: { exp: 1 } }),
    ).rejects.toThrow(/claims cannot set exp/);
  });
});

describe('startMockServer and agentchat-mock, trusting a local issuer over HTTP', () => {
  let issuer: LocalIssuerServer;
  let mock: MockServer;
  let bin: ServerProcess;
  beforeAll(async () => {
    issuer = await startLocalIssuer();
    mock = await startMockServer({ trustedIssuers: [issuer.issuer], audience: 'agentchat' });
    bin = await startServerProcess(
      'src/testing/node/bin.ts',
      ['--port', '0', '--trust-issuer', issuer.issuer, '--audience', 'agentchat'],
      /listening on (\S+)/,
    );
  });
  afterAll(async () => {
    await Promise.all([issuer?.close(), mock?.close(), bin?.stop()]);
  });

  it.each(GRANTS)(
    "takes the issuer's tokens with the %s grant, for the token URL or the audience given",
    async (grant) => {
      for (const baseUrl of [mock.baseUrl, bin.url]) {
        for (const audience of [`${baseUrl}/oauth/token`, 'agentchat']) {
          const client = federatedClient(baseUrl, issuer, { grant, audience });
          const project = await client.projects.create({ name: 'Over HTTP', agentId: 'agent_1' });
          expect(await client.projects.get(project.id)).toMatchObject({ name: 'Over HTTP' });
        }
      }
      expect(mock.service.oauth.tokens()).toMatchObject([
        { grant, identity: { issuer: issuer.issuer, subject: SUBJECT } },
        { grant, identity: { issuer: issuer.issuer, subject: SUBJECT } },
      ]);
      mock.service.reset();
    },
  );

  it('says an issuer that cannot be reached could not give its keys, and asks again next time', async () => {
    const gone = await startLocalIssuer();
    const token = await gone.signIdentityToken({ subject: SUBJECT, audience: 'agentchat' });
    await gone.close();
    const lonely = await startMockServer({ trustedIssuers: [gone.issuer], audience: 'agentchat' });
    try {
      const client = new Client({
        baseUrl: lonely.baseUrl,
        maxRetries: 0,
        apiKey: workloadIdentity({
          tokenUrl: `${lonely.baseUrl}/oauth/token`,
          identityToken: () => token,
        }),
      });
      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await oauthErrorOf(client.projects.create({ name: 'No', agentId: 'a' }));
        expect(error.error).toBe('invalid_grant');
        expect(error.errorDescription).toContain(
          `The keys of the issuer ${gone.issuer} could not be found: its discovery document ${gone.issuer}/.well-known/openid-configuration could not be read`,
        );
      }
    } finally {
      await lonely.close();
    }
  });

  it('refuses a wrong audience, an expired token and an untrusted issuer, from the bin too', async () => {
    const stranger = await startLocalIssuer();
    try {
      const tokenUrl = `${bin.url}/oauth/token`;
      const cases: Array<[() => Promise<string>, RegExp]> = [
        [
          () => issuer.signIdentityToken({ subject: SUBJECT, audience: 'other' }),
          /audience \(aud\)/,
        ],
        [
          () =>
            issuer.signIdentityToken({
              subject: SUBJECT,
              audience: tokenUrl,
              issuedAt: Date.now() - 3_600_000,
            }),
          /has expired/,
        ],
        [
          () => stranger.signIdentityToken({ subject: SUBJECT, audience: tokenUrl }),
          /does not trust/,
        ],
      ];
      for (const [sign, described] of cases) {
        const token = await sign();
        const client = new Client({
          baseUrl: bin.url,
          maxRetries: 0,
          apiKey: workloadIdentity({ tokenUrl, identityToken: () => token }),
        });
        const error = await oauthErrorOf(client.projects.create({ name: 'No', agentId: 'a' }));
        expect([error.error, error.errorDescription]).toEqual([
          'invalid_grant',
          expect.stringMatching(described),
        ]);
      }
    } finally {
      await stranger.close();
    }
  });
});
