import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentChatError, ConfigurationError, OAuthError } from '../../src/index.js';
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
    expect(error).toBeInstanceOf(ConfigurationError);
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
      'No credentials: set AGENTCHAT_API_KEY, or AGENTCHAT_CLIENT_ID, AGENTCHAT_CLIENT_SECRET ' +
        '(or AGENTCHAT_PRIVATE_KEY_FILE or AGENTCHAT_CLIENT_ASSERTION_FILE) and AGENTCHAT_TOKEN_URL ' +
        '(or AGENTCHAT_ISSUER) for OAuth 2.0.',
    );
  });

  it('names the OAuth settings missing from an incomplete set', () => {
    expect(
      errorFor({ AGENTCHAT_BASE_URL: BASE_URL, AGENTCHAT_CLIENT_ID: 'client_1' }).message,
    ).toBe(
      'Incomplete OAuth 2.0 settings: AGENTCHAT_CLIENT_SECRET (or AGENTCHAT_PRIVATE_KEY_FILE or ' +
        'AGENTCHAT_CLIENT_ASSERTION_FILE) and AGENTCHAT_TOKEN_URL (or AGENTCHAT_ISSUER) are not set ' +
        '(OAuth 2.0 needs AGENTCHAT_CLIENT_ID, AGENTCHAT_CLIENT_SECRET (or AGENTCHAT_PRIVATE_KEY_FILE or AGENTCHAT_CLIENT_ASSERTION_FILE) and AGENTCHAT_TOKEN_URL (or AGENTCHAT_ISSUER)).',
    );
    expect(
      errorFor({ ...oauth, AGENTCHAT_BASE_URL: BASE_URL, AGENTCHAT_TOKEN_URL: '' }).message,
    ).toMatch(
      /^Incomplete OAuth 2.0 settings: AGENTCHAT_TOKEN_URL \(or AGENTCHAT_ISSUER\) is not set/,
    );
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
        'OAuth 2.0 settings (AGENTCHAT_CLIENT_ID, AGENTCHAT_CLIENT_SECRET (or AGENTCHAT_PRIVATE_KEY_FILE or AGENTCHAT_CLIENT_ASSERTION_FILE) and AGENTCHAT_TOKEN_URL (or AGENTCHAT_ISSUER)), not both.',
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

  describe('enterprise identity settings', () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentchat-config-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    const file = (name: string, text: string) => {
      const path = join(folder, name);
      writeFileSync(path, text);
      return path;
    };
    const keyBody = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC_never_shown';
    const issuerEnv = {
      AGENTCHAT_BASE_URL: BASE_URL,
      AGENTCHAT_CLIENT_ID: 'client_1',
      AGENTCHAT_ISSUER: 'https://login.example.com/tenant/v2.0',
    };

    it('makes a provider from an issuer, a private key file and the optional settings', () => {
      const options = clientOptionsFromEnv({
        ...issuerEnv,
        AGENTCHAT_PRIVATE_KEY_FILE: file(
          'key.pem',
          `-----BEGIN PRIVATE KEY-----\n${keyBody}\n-----END PRIVATE KEY-----\n`,
        ),
        AGENTCHAT_KEY_ID: 'key-1',
        AGENTCHAT_KEY_ALGORITHM: 'PS256',
        AGENTCHAT_RESOURCE: 'https://api.example.com/ https://other.example.com/',
        AGENTCHAT_SCOPE: 'projects chat',
      });
      expect(typeof options.apiKey).toBe('function');
    });

    it('names the file and the reason when a key file cannot be read, never a value', () => {
      const missing = join(folder, 'absent.pem');
      expect(errorFor({ ...issuerEnv, AGENTCHAT_PRIVATE_KEY_FILE: missing }).message).toBe(
        `AGENTCHAT_PRIVATE_KEY_FILE: cannot read ${missing} (ENOENT).`,
      );
      const pkcs1 = file(
        'rsa.pem',
        `-----BEGIN RSA PRIVATE KEY-----\n${keyBody}\n-----END RSA PRIVATE KEY-----\n`,
      );
      const message = errorFor({ ...issuerEnv, AGENTCHAT_PRIVATE_KEY_FILE: pkcs1 }).message;
      expect(message).toContain('openssl pkcs8 -topk8 -nocrypt');
      expect(message).not.toContain(keyBody);
      const badJwk = file('key.json', `{"kty":"RSA","d":"${keyBody}"`);
      const jwkMessage = errorFor({ ...issuerEnv, AGENTCHAT_PRIVATE_KEY_FILE: badJwk }).message;
      expect(jwkMessage).toContain('is not JSON');
      expect(jwkMessage).not.toContain(keyBody);
    });

    it('refuses two credentials or two token sources', () => {
      expect(
        errorFor({ ...issuerEnv, ...oauth, AGENTCHAT_CLIENT_ASSERTION_FILE: '/var/run/token' })
          .message,
      ).toBe(
        'AGENTCHAT_CLIENT_SECRET and AGENTCHAT_CLIENT_ASSERTION_FILE are both set: set only one of ' +
          'AGENTCHAT_CLIENT_SECRET, AGENTCHAT_PRIVATE_KEY_FILE and AGENTCHAT_CLIENT_ASSERTION_FILE.',
      );
      expect(
        errorFor({ ...issuerEnv, AGENTCHAT_CLIENT_SECRET: 's', AGENTCHAT_TOKEN_URL: 'https://t/' })
          .message,
      ).toBe(
        'AGENTCHAT_TOKEN_URL and AGENTCHAT_ISSUER are both set: set only one of AGENTCHAT_TOKEN_URL and AGENTCHAT_ISSUER.',
      );
    });

    it('reads the assertion file for each token request, and names it when it is gone', async () => {
      const path = file('token', 'first.jwt.token\n');
      const forms: URLSearchParams[] = [];
      const { apiKey } = clientOptionsFromEnv({
        ...issuerEnv,
        AGENTCHAT_ISSUER: undefined,
        AGENTCHAT_TOKEN_URL: 'https://login.example.com/token',
        AGENTCHAT_CLIENT_ASSERTION_FILE: path,
      });
      const provider = apiKey as (context: { rejected?: string }) => Promise<string>;
      const realFetch = globalThis.fetch;
      globalThis.fetch = async (input) => {
        forms.push(new URLSearchParams(await (input as Request).text()));
        return Response.json({ access_token: `at_${forms.length}`, token_type: 'Bearer' });
      };
      try {
        await provider({});
        writeFileSync(path, 'second.jwt.token');
        await provider({ rejected: 'at_1' });
        expect(forms.map((form) => form.get('client_assertion'))).toEqual([
          'first.jwt.token',
          'second.jwt.token',
        ]);
        rmSync(path);
        const error = await provider({ rejected: 'at_2' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(OAuthError);
        expect((error as Error).message).toContain(
          `AGENTCHAT_CLIENT_ASSERTION_FILE: cannot read ${path} (ENOENT)`,
        );
        expect(forms).toHaveLength(2);
      } finally {
        globalThis.fetch = realFetch;
      }
    });
  });
});
