/**
 * The sign-in front's settings: each bad one refused when the handler is made (or the command
 * line read) with a ConfigurationError naming the option, never quoting a key; and the signing
 * key given is the one the front publishes.
 */
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConfigurationError } from '../../../src/index.js';
import { parseBinArguments } from '../../../src/mcp/arguments.js';
import { createMcpHttpHandler, type McpHttpHandlerOptions } from '../../../src/mcp/index.js';
import {
  startUpstreamIdentityProvider,
  type UpstreamIdentityProvider,
} from '../../helpers/upstream-identity-provider.js';

const client = new Client({ apiKey: 'sk_front_config', baseUrl: 'http://127.0.0.1:9/api' });
const front: McpHttpHandlerOptions = {
  client,
  resource: 'http://127.0.0.1:8787/mcp',
  upstreamIssuer: 'https://login.example.com',
  upstreamClientId: 'front-app',
};

/** The message of the ConfigurationError `options` (bad on purpose, so loosely typed) get. */
function refusal(options: Record<string, unknown>): string {
  try {
    createMcpHttpHandler(options as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('the sign-in front refuses at construction', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['no client', { ...front, client: undefined }, /needs client/],
    ['no resource', { ...front, resource: undefined }, /needs resource/],
    ['no upstreamClientId', { ...front, upstreamClientId: undefined }, /needs upstreamClientId/],
    [
      'authorizationServer beside it',
      { ...front, authorizationServer: 'https://auth.example.com' },
      /not both/,
    ],
    [
      'an upstream on plain http off this machine',
      { ...front, upstreamIssuer: 'http://login.example.com' },
      /over https/,
    ],
    [
      'an upstreamIssuer that is no URL',
      { ...front, upstreamIssuer: 'login' },
      /Invalid upstreamIssuer/,
    ],
    ['a scope without openid', { ...front, upstreamScope: 'profile' }, /holding openid/],
    [
      'a resource on plain http off this machine',
      { ...front, resource: 'http://mcp.example.com/mcp' },
      /over https/,
    ],
    ['a store that is not Redis', { ...front, store: 'mysql://db' }, /Invalid store/],
    [
      'upstreamClientId without upstreamIssuer',
      { client, upstreamClientId: 'front-app' },
      /upstreamClientId is for the sign-in front: add upstreamIssuer/,
    ],
  ])('%s', (_name, options, message) => {
    expect(refusal(options)).toMatch(message);
  });

  it('a signing key that is not a private key, without quoting it', async () => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = JSON.stringify(await exportJWK(publicKey));
    for (const signingKey of [publicJwk, 'not a key at all', '{"kty":']) {
      const message = refusal({ ...front, signingKey });
      expect(message).toMatch(/not a private key/);
      expect(message).not.toContain(signingKey);
    }
  });
});

describe('agentchat-mcp --upstream-issuer', () => {
  it.each([
    [['--http', '--upstream-client-id', 'app'], /--upstream-client-id is for the sign-in front/],
    [['--http', '--store', 'redis://h'], /--store is for the sign-in front/],
    [['--http', '--upstream-issuer', 'https://login.example.com'], /needs --upstream-client-id/],
    [
      [
        '--http',
        '--upstream-issuer',
        'https://a',
        '--upstream-client-id',
        'x',
        '--authorization-server',
        'https://b',
      ],
      /do not go together/,
    ],
    [
      ['--http', '--upstream-issuer', 'https://a', '--upstream-client-id', 'x', '--introspection'],
      /--introspection is for tokens of another authorization server/,
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseBinArguments(argv)).toThrow(message);
  });

  it('reads the front’s flags', () => {
    const args = parseBinArguments([
      '--http',
      '--resource',
      'https://mcp.example.com/mcp',
      '--upstream-issuer',
      'https://login.example.com',
      '--upstream-client-id',
      'front-app',
      '--upstream-scope',
      'openid email',
      '--store',
      'redis://cache:6379',
    ]);
    expect(args.authorization).toMatchObject({
      issuer: 'https://login.example.com',
      resource: 'https://mcp.example.com/mcp',
      upstream: { clientId: 'front-app', scope: 'openid email', store: 'redis://cache:6379' },
    });
  });
});

describe('the signing key', () => {
  // The front discovers its upstream when it starts: one on this machine.
  let upstream: UpstreamIdentityProvider;
  beforeAll(async () => {
    upstream = await startUpstreamIdentityProvider('http://127.0.0.1:8787');
  });
  afterAll(() => upstream?.close());

  it('given as a PKCS#8 PEM, is the one the front publishes and signs with', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const handler = createMcpHttpHandler({
      ...front,
      upstreamIssuer: upstream.issuer,
      signingKey: await exportPKCS8(privateKey),
    });
    try {
      const jwks = (await (
        await handler.fetch(new Request('http://127.0.0.1:8787/jwks'))
      ).json()) as {
        keys: Array<Record<string, unknown>>;
      };
      const expected = await exportJWK(publicKey);
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).toMatchObject({
        kty: 'EC',
        crv: 'P-256',
        x: expected.x,
        y: expected.y,
        alg: 'ES256',
      });
      expect(jwks.keys[0]).not.toHaveProperty('d');
    } finally {
      await handler.close();
    }
  });
});
