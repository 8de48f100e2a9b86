/**
 * What clientCredentials checks when it is made (the credential and where tokens come from), and
 * what it sends, read from a stubbed fetch: repeated `resource` parameters, assertions signed with
 * each kind of key, the fleet cache key.
 */
import { inspect } from 'node:util';
import { decodeJwt, decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  type ClientCredentialsOptions,
  ConfigurationError,
  clientCredentials,
  OAuthError,
  type TokenCache,
} from '../../src/index.js';
import { metadataUrls } from '../../src/oauth/discovery.js';

/** A token endpoint that grants every request, recording each form it got. */
function grantingFetch() {
  const forms: URLSearchParams[] = [];
  const urls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    urls.push(request.url);
    if (request.method === 'POST') forms.push(new URLSearchParams(await request.text()));
    return Response.json({
      access_token: `at_${forms.length}`,
      token_type: 'Bearer',
      expires_in: 60,
    });
  };
  return { fetch, forms, urls };
}

const base = { tokenUrl: 'https://auth.test/token', clientId: 'svc' };
const makeError = (options: unknown) => {
  try {
    clientCredentials(options as ClientCredentialsOptions);
  } catch (error) {
    return error as Error;
  }
  return undefined;
};

describe('checking the options when the provider is made', () => {
  it.each([
    [
      'a privateKey with a secret method',
      {
        ...base,
        privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
        authMethod: 'client_secret_post',
      },
      "privateKey: signs private_key_jwt assertions; did you mean authMethod: 'private_key_jwt' rather than 'client_secret_post'?",
    ],
    [
      'private_key_jwt with a secret',
      { ...base, clientSecret: 's', authMethod: 'private_key_jwt' },
      'did you mean privateKey rather than clientSecret?',
    ],
    [
      'both issuer and tokenUrl',
      { ...base, issuer: 'https://auth.test', clientSecret: 's' },
      'issuer and tokenUrl are both given',
    ],
    [
      'neither issuer nor tokenUrl',
      { clientId: 'svc', clientSecret: 's' },
      'tokenUrl: required; pass the tokenUrl option or set AGENTCHAT_TOKEN_URL, or give issuer',
    ],
    [
      'no credential',
      { ...base },
      'clientSecret: required; pass the clientSecret option or set AGENTCHAT_CLIENT_SECRET, or give privateKey',
    ],
    [
      'two credentials',
      { ...base, clientSecret: 's', clientAssertion: () => 'a' },
      'clientSecret and clientAssertion are both given',
    ],
    [
      'a keyId without a key',
      { ...base, clientSecret: 's', keyId: 'k' },
      'keyId: only used with privateKey',
    ],
    [
      'a misspelt option',
      { ...base, clientSecret: 's', resources: ['r'] },
      'did you mean resource?',
    ],
    [
      'an issuer that is no URL',
      { issuer: 'auth.test', clientId: 'svc', clientSecret: 's' },
      'issuer: expected an absolute http(s) URL',
    ],
  ])('refuses %s, saying what to do', (_, options, message) => {
    const error = makeError(options);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error?.message).toContain(message);
  });

  it.each([
    ['RSA PRIVATE KEY', 'PKCS#1'],
    ['EC PRIVATE KEY', 'SEC1'],
  ])('names the openssl conversion for a %s PEM, never quoting the key', (label, kind) => {
    const body = 'MIIEpAIBAAKCAQEAsecretkeymaterial';
    const error = makeError({
      ...base,
      privateKey: `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`,
    });
    expect(error?.message).toContain(kind);
    expect(error?.message).toContain('openssl pkcs8 -topk8 -nocrypt');
    expect(inspect(error)).not.toContain(body);
  });

  it('refuses a public JWK as the private key', async () => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const error = makeError({ ...base, privateKey: await exportJWK(publicKey) });
    expect(error?.message).toContain('privateKey: is a public JWK');
  });
});

describe('what a token request sends', () => {
  it('sends each resource as its own parameter, beside audience', async () => {
    const endpoint = grantingFetch();
    const apiKey = clientCredentials({
      ...base,
      clientSecret: 's',
      audience: 'https://aud.test',
      resource: ['https://a.test/', 'https://b.test/'],
      fetch: endpoint.fetch,
    });
    await apiKey({});
    expect(endpoint.forms[0]?.getAll('resource')).toEqual(['https://a.test/', 'https://b.test/']);
    expect(endpoint.forms[0]?.get('audience')).toBe('https://aud.test');
  });

  it.each([
    ['ES256', 'ES256'],
    ['Ed25519', 'EdDSA'],
  ] as const)(
    'signs with a %s key as %s, the key’s own algorithm, from a PEM, a JWK and a CryptoKey',
    async (kind, alg) => {
      const { privateKey } = await generateKeyPair(kind, { extractable: true });
      for (const key of [await exportPKCS8(privateKey), await exportJWK(privateKey), privateKey]) {
        const endpoint = grantingFetch();
        const apiKey = clientCredentials({
          ...base,
          privateKey: key,
          keyId: 'k1',
          fetch: endpoint.fetch,
        });
        await apiKey({});
        const assertion = endpoint.forms[0]?.get('client_assertion') ?? '';
        expect(decodeProtectedHeader(assertion)).toMatchObject({ alg, kid: 'k1' });
        expect(decodeJwt(assertion)).toMatchObject({ iss: 'svc', sub: 'svc', aud: base.tokenUrl });
      }
    },
  );

  it('signs an RSA PEM with RS256 unless algorithm says otherwise; an RSA-PSS CryptoKey with PS256', async () => {
    const { privateKey } = await generateKeyPair('PS256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const algOf = async (options: Partial<ClientCredentialsOptions>) => {
      const endpoint = grantingFetch();
      await clientCredentials({ ...base, fetch: endpoint.fetch, ...options })({});
      return decodeProtectedHeader(endpoint.forms[0]?.get('client_assertion') ?? '').alg;
    };
    expect(await algOf({ privateKey: pem })).toBe('RS256');
    expect(await algOf({ privateKey: pem, algorithm: 'PS256' })).toBe('PS256');
    expect(await algOf({ privateKey })).toBe('PS256');
  });

  it('fails with OAuthError, sending nothing and never showing the key, when the key does not fit the algorithm', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const endpoint = grantingFetch();
    const apiKey = clientCredentials({
      ...base,
      privateKey: pem,
      algorithm: 'RS256',
      fetch: endpoint.fetch,
    });
    const error = await Promise.resolve(apiKey({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ status: 0 });
    expect((error as Error).message).toContain('could not be used to sign RS256');
    expect(inspect(error)).not.toContain(pem.split('\n')[1]);
    expect(endpoint.urls).toEqual([]);
  });

  it('sends certificateThumbprint as x5t#S256, as Entra ID asks', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const endpoint = grantingFetch();
    const apiKey = clientCredentials({
      ...base,
      privateKey,
      certificateThumbprint: 'thumb',
      fetch: endpoint.fetch,
    });
    await apiKey({});
    const header = decodeProtectedHeader(endpoint.forms[0]?.get('client_assertion') ?? '');
    expect(header).toMatchObject({ alg: 'RS256', 'x5t#S256': 'thumb' });
  });
});

describe('issuer metadata', () => {
  it.each([
    ['names no token endpoint', {}, 'names no token_endpoint'],
    ['names one that is no URL', { token_endpoint: 'token' }, 'names a token_endpoint that is not'],
  ])('is an OAuthError when it %s, and nothing is sent', async (_, fields, message) => {
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      urls.push(String(input));
      return Response.json({ issuer: 'https://auth.test', ...fields });
    };
    const apiKey = clientCredentials({
      issuer: 'https://auth.test',
      clientId: 'svc',
      clientSecret: 's',
      fetch,
    });
    const error = await Promise.resolve(apiKey({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as Error).message).toContain(message);
    expect(urls).toEqual(['https://auth.test/.well-known/oauth-authorization-server']);
  });
});

describe('issuer metadata locations', () => {
  it('inserts the issuer path after the RFC 8414 well-known name, and appends OpenID’s', () => {
    expect(metadataUrls('https://login.example/tenant/v2.0')).toEqual([
      'https://login.example/.well-known/oauth-authorization-server/tenant/v2.0',
      'https://login.example/tenant/v2.0/.well-known/openid-configuration',
    ]);
    expect(metadataUrls('https://auth.example/')).toEqual([
      'https://auth.example/.well-known/oauth-authorization-server',
      'https://auth.example/.well-known/openid-configuration',
    ]);
  });
});

describe('the fleet cache key', () => {
  /** The key each configuration's token is stored under. */
  async function keyOf(options: Partial<ClientCredentialsOptions>): Promise<string> {
    const keys: string[] = [];
    const cache: TokenCache = {
      get: (key) => {
        keys.push(key);
        return undefined;
      },
      set: () => {},
    };
    const endpoint = grantingFetch();
    const issuerFetch: typeof globalThis.fetch = async (input, init) => {
      const url = String(input);
      if (url.includes('/.well-known/')) {
        return Response.json({ issuer: 'https://auth.test', token_endpoint: base.tokenUrl });
      }
      return endpoint.fetch(input, init);
    };
    await clientCredentials({
      ...base,
      clientSecret: 's',
      cache,
      fetch: issuerFetch,
      ...options,
    } as ClientCredentialsOptions)({});
    return keys[0] ?? '';
  }

  it('keeps the key of a token URL and a Basic secret, and tells issuer, resource and method apart', async () => {
    const plain = await keyOf({});
    // The key a provider made before these options existed, so that a fleet upgraded one process
    // at a time goes on sharing one token.
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(JSON.stringify([base.tokenUrl, 'svc', null, null])),
    );
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    expect(plain).toBe(`agentchat:oauth-token:${hex}`);
    const others = await Promise.all([
      keyOf({ tokenUrl: undefined, issuer: 'https://auth.test' }),
      keyOf({ resource: 'https://a.test/' }),
      keyOf({ resource: 'https://b.test/' }),
      keyOf({ authMethod: 'client_secret_post' }),
    ]);
    expect(new Set([plain, ...others]).size).toBe(5);
  });
});
