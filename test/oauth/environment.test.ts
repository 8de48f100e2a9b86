/**
 * clientCredentials() reads what it is not given from the environment, with the variables
 * agentchat-mcp reads: a provider made from the environment alone gets tokens, an option given
 * wins over its variable, and what is missing is named both ways.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, clientCredentials } from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const reporting = { clientId: 'reporting', clientSecret: 'env:s3cret' };
const { mock, client } = useMockService({ oauthClients: [reporting] });
const tokenUrl = `${mock.baseUrl}/oauth/token`;

/** Every variable clientCredentials reads, unset, so that the machine's own cannot leak in. */
const VARIABLES = [
  'AGENTCHAT_CLIENT_ID',
  'AGENTCHAT_CLIENT_SECRET',
  'AGENTCHAT_TOKEN_URL',
  'AGENTCHAT_ISSUER',
  'AGENTCHAT_SCOPE',
  'AGENTCHAT_AUDIENCE',
  'AGENTCHAT_RESOURCE',
  'AGENTCHAT_AUTH_METHOD',
  'AGENTCHAT_KEY_ID',
  'AGENTCHAT_KEY_ALGORITHM',
  'AGENTCHAT_CERTIFICATE_THUMBPRINT',
];

function environment(values: Record<string, string>) {
  for (const name of VARIABLES) vi.stubEnv(name, values[name] ?? '');
}

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The message clientCredentials throws with, which must be a ConfigurationError. */
function refusal(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('did not throw');
}

/** The form of the one token request the mock received. */
function tokenForm(): URLSearchParams {
  const requests = mock.requestLog().filter((request) => request.path.endsWith('/oauth/token'));
  expect(requests).toHaveLength(1);
  return new URLSearchParams(String(requests[0]?.body));
}

describe('clientCredentials() and the environment', () => {
  it('takes every setting from the environment, with no options at all', async () => {
    environment({
      AGENTCHAT_CLIENT_ID: reporting.clientId,
      AGENTCHAT_CLIENT_SECRET: reporting.clientSecret,
      AGENTCHAT_TOKEN_URL: tokenUrl,
      AGENTCHAT_SCOPE: 'projects chat',
      AGENTCHAT_AUDIENCE: 'https://api.test',
      AGENTCHAT_RESOURCE: 'https://a.test https://b.test',
      AGENTCHAT_AUTH_METHOD: 'client_secret_post',
    });
    const api = client({ apiKey: clientCredentials() });

    await api.projects.create({ name: 'Demo', agentId: 'agent_1' });
    const form = tokenForm();
    expect(form.get('client_id')).toBe('reporting');
    expect(form.get('client_secret')).toBe('env:s3cret');
    expect(form.get('scope')).toBe('projects chat');
    expect(form.get('audience')).toBe('https://api.test');
    expect(form.getAll('resource')).toEqual(['https://a.test', 'https://b.test']);
    expect(mock.oauth.tokens()).toMatchObject([{ clientId: 'reporting', scope: 'projects chat' }]);
  });

  it('lets each option given win over its variable', async () => {
    environment({
      AGENTCHAT_CLIENT_ID: 'someone-else',
      AGENTCHAT_CLIENT_SECRET: 'not-this',
      AGENTCHAT_TOKEN_URL: 'https://elsewhere.test/oauth/token',
      AGENTCHAT_SCOPE: 'everything',
    });
    const api = client({
      apiKey: clientCredentials({ ...reporting, tokenUrl, scope: 'projects' }),
    });

    await api.projects.create({ name: 'Demo', agentId: 'agent_1' });
    expect(tokenForm().get('scope')).toBe('projects');
    expect(mock.oauth.tokens()).toMatchObject([{ clientId: 'reporting', scope: 'projects' }]);
  });

  it('fills in only what fits beside the options given', () => {
    // An issuer given: AGENTCHAT_TOKEN_URL would conflict with it, so it is not read. A callback
    // given: neither is AGENTCHAT_CLIENT_SECRET, nor AGENTCHAT_AUTH_METHOD.
    environment({
      AGENTCHAT_CLIENT_ID: 'svc',
      AGENTCHAT_CLIENT_SECRET: 's',
      AGENTCHAT_TOKEN_URL: tokenUrl,
      AGENTCHAT_AUTH_METHOD: 'client_secret_post',
      AGENTCHAT_KEY_ID: 'key-1',
    });
    expect(() =>
      clientCredentials({ issuer: 'https://auth.test', clientAssertion: () => 'jwt' }),
    ).not.toThrow();
  });

  it('works as before with every option given and nothing set', async () => {
    environment({});
    const api = client({ apiKey: clientCredentials({ ...reporting, tokenUrl }) });

    await api.projects.create({ name: 'Demo', agentId: 'agent_1' });
    expect(mock.oauth.tokens()).toHaveLength(1);
  });

  it('names both the option and the variable for each setting missing', () => {
    environment({});
    expect(refusal(() => clientCredentials())).toBe(
      'Invalid clientCredentials options: ' +
        'clientId: required; pass the clientId option or set AGENTCHAT_CLIENT_ID; ' +
        'tokenUrl: required; pass the tokenUrl option or set AGENTCHAT_TOKEN_URL, or give issuer (or AGENTCHAT_ISSUER) to find the token endpoint by discovery; ' +
        'clientSecret: required; pass the clientSecret option or set AGENTCHAT_CLIENT_SECRET, or give privateKey (private_key_jwt) or clientAssertion (workload identity)',
    );
  });

  it('says which variable a refused value came from', () => {
    environment({
      AGENTCHAT_CLIENT_ID: 'svc',
      AGENTCHAT_CLIENT_SECRET: 's',
      AGENTCHAT_TOKEN_URL: 'auth.test/token',
    });
    expect(refusal(() => clientCredentials())).toContain(
      'tokenUrl (from AGENTCHAT_TOKEN_URL): expected an absolute http(s) URL',
    );

    environment({
      AGENTCHAT_CLIENT_ID: 'svc',
      AGENTCHAT_CLIENT_SECRET: 's',
      AGENTCHAT_TOKEN_URL: tokenUrl,
      AGENTCHAT_ISSUER: 'https://auth.test',
    });
    expect(refusal(() => clientCredentials())).toContain(
      'issuer (from AGENTCHAT_ISSUER) and tokenUrl (from AGENTCHAT_TOKEN_URL) are both given',
    );

    environment({
      AGENTCHAT_CLIENT_ID: 'svc',
      AGENTCHAT_CLIENT_SECRET: 's',
      AGENTCHAT_TOKEN_URL: tokenUrl,
      AGENTCHAT_AUTH_METHOD: 'jwt',
    });
    expect(refusal(() => clientCredentials())).toContain('authMethod (from AGENTCHAT_AUTH_METHOD)');
  });

  it('counts a blank variable as unset, and never shows the secret', () => {
    environment({ AGENTCHAT_CLIENT_ID: '  ', AGENTCHAT_CLIENT_SECRET: 'env-secret-value' });
    const message = refusal(() => clientCredentials());
    expect(message).toContain('clientId: required');
    expect(message).not.toContain('env-secret-value');
  });
});
