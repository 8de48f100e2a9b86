import { describe, expect, it } from 'vitest';
import { AgentChatError } from '../../src/index.js';
import { clientOptionsFromEnv } from '../../src/mcp/config.js';

const BASE_URL = 'http://127.0.0.1:4010/api';
const oauth = {
  AGENTCHAT_CLIENT_ID: 'client_1',
  AGENTCHAT_CLIENT_SECRET: 'secret_value_9d1f',
  AGENTCHAT_TOKEN_URL: 'http://127.0.0.1:4010/api/oauth/token',
};

/** The error clientOptionsFromEnv throws for `env`; fails the test when it throws none. */
function errorFor(env: Record<string, string | undefined>): AgentChatError {
  try {
    clientOptionsFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentChatError);
    return error as AgentChatError;
  }
  throw new Error('expected clientOptionsFromEnv to throw');
}

describe('clientOptionsFromEnv', () => {
  it('reads the API key and the base URL, trimmed', () => {
    expect(
      clientOptionsFromEnv({ AGENTCHAT_API_KEY: ' sk_test ', AGENTCHAT_BASE_URL: BASE_URL }),
    ).toEqual({ apiKey: 'sk_test', baseUrl: BASE_URL });
  });

  it('asks for the base URL when it is missing or blank', () => {
    for (const AGENTCHAT_BASE_URL of [undefined, '', '  ']) {
      expect(errorFor({ AGENTCHAT_API_KEY: 'sk_test', AGENTCHAT_BASE_URL }).message).toBe(
        'AGENTCHAT_BASE_URL is not set: set it to the service root before /v1, such as https://host/api.',
      );
    }
  });

  it('asks for credentials when there are none', () => {
    expect(errorFor({ AGENTCHAT_BASE_URL: BASE_URL, AGENTCHAT_API_KEY: ' ' }).message).toBe(
      'No credentials: set AGENTCHAT_API_KEY, or AGENTCHAT_CLIENT_ID, AGENTCHAT_CLIENT_SECRET and ' +
        'AGENTCHAT_TOKEN_URL for OAuth 2.0.',
    );
  });

  it('names the OAuth settings missing from an incomplete set', () => {
    expect(
      errorFor({ AGENTCHAT_BASE_URL: BASE_URL, AGENTCHAT_CLIENT_ID: 'client_1' }).message,
    ).toBe(
      'Incomplete OAuth 2.0 settings: AGENTCHAT_CLIENT_SECRET and AGENTCHAT_TOKEN_URL are not set ' +
        '(OAuth 2.0 needs AGENTCHAT_CLIENT_ID, AGENTCHAT_CLIENT_SECRET and AGENTCHAT_TOKEN_URL).',
    );
    expect(
      errorFor({ ...oauth, AGENTCHAT_BASE_URL: BASE_URL, AGENTCHAT_TOKEN_URL: '' }).message,
    ).toMatch(/^Incomplete OAuth 2.0 settings: AGENTCHAT_TOKEN_URL is not set/);
  });

  it('refuses an API key together with OAuth settings', () => {
    expect(
      errorFor({
        AGENTCHAT_BASE_URL: BASE_URL,
        AGENTCHAT_API_KEY: 'sk_test',
        AGENTCHAT_CLIENT_SECRET: oauth.AGENTCHAT_CLIENT_SECRET,
      }).message,
    ).toBe(
      'Both AGENTCHAT_API_KEY and AGENTCHAT_CLIENT_SECRET are set: set either the API key or the ' +
        'OAuth 2.0 settings (AGENTCHAT_CLIENT_ID, AGENTCHAT_CLIENT_SECRET, AGENTCHAT_TOKEN_URL), not both.',
    );
  });

  it('makes a client-credentials token provider from the OAuth 2.0 settings', () => {
    const options = clientOptionsFromEnv({ ...oauth, AGENTCHAT_BASE_URL: BASE_URL });
    expect(options.baseUrl).toBe(BASE_URL);
    expect(typeof options.apiKey).toBe('function');
  });

  it('refuses a token URL that is not an http(s) URL, naming the setting', () => {
    expect(
      errorFor({
        ...oauth,
        AGENTCHAT_TOKEN_URL: 'auth.example/token',
        AGENTCHAT_BASE_URL: BASE_URL,
      }).message,
    ).toMatch(/tokenUrl: expected an absolute http\(s\) URL/);
  });

  it('never prints a value it was given', () => {
    const secret = 'sk_live_never_shown_81c2';
    const messages = [
      errorFor({ AGENTCHAT_API_KEY: secret }),
      errorFor({ AGENTCHAT_API_KEY: secret, ...oauth, AGENTCHAT_BASE_URL: BASE_URL }),
      errorFor({ ...oauth, AGENTCHAT_TOKEN_URL: 'not a url', AGENTCHAT_BASE_URL: BASE_URL }),
      errorFor({
        AGENTCHAT_CLIENT_SECRET: oauth.AGENTCHAT_CLIENT_SECRET,
        AGENTCHAT_BASE_URL: BASE_URL,
      }),
    ].map((error) => error.message);
    expect(messages.join('\n')).not.toContain(secret);
    expect(messages.join('\n')).not.toContain(oauth.AGENTCHAT_CLIENT_SECRET);
  });
});
