/**
 * The token request of RFC 6749 section 4.4 as an endpoint the transport can send: a form POST
 * with `grant_type=client_credentials`, the client authenticated by HTTP Basic or in the body,
 * and the answer's shape.
 */
import * as z from 'zod/mini';
import type { Endpoint } from '../core/call.js';
import type { Credential } from '../core/credential.js';
import { AgentChatError } from '../core/errors/index.js';
import { urlCharacters } from '../core/options.js';
import { accessTokenProblem, MAX_TOKEN_RESPONSE_BYTES } from './access-token.js';

/**
 * What a token endpoint answers (RFC 6749 section 5.1); other fields are kept and ignored. Made
 * when a provider is, not when the module loads: a bundle that never uses client credentials then
 * drops it, and the zod schema kinds only it needs, entirely.
 */
function tokenResponseSchema() {
  return z.looseObject({
    // Only a token that can be sent as `Bearer <token>`: the provider turns this field's issue
    // into an OAuthError naming the token endpoint, and never holds such a token.
    access_token: z.custom<string>().check(
      z.superRefine((value, context) => {
        const problem = accessTokenProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem, input: value });
      }),
    ),
    token_type: z.string().check(
      z.refine((type) => type.toLowerCase() === 'bearer', {
        message: 'must be Bearer, the only token type this service accepts',
      }),
    ),
    // A number of seconds; some servers send it as a string of digits. One custom check and an
    // overwrite rather than z.union, z.pipe and z.transform: 0.5 KiB less in a browser bundle.
    expires_in: z.optional(
      z.custom<number>().check(
        z.refine(
          (value) =>
            (typeof value === 'number' && value > 0) ||
            (typeof value === 'string' && /^\d+$/.test(value) && Number(value) > 0),
          { message: 'expected a positive number of seconds' },
        ),
        z.overwrite((value) => Number(value)),
      ),
    ),
  });
}

type TokenResponse = z.output<ReturnType<typeof tokenResponseSchema>>;

/** The token request for one provider: where it goes, what it sends, how it authenticates. */
export interface TokenEndpoint extends Endpoint<Record<string, string>, TokenResponse> {
  /** The token URL's origin: the transport's base. */
  readonly origin: string;
  /** The form fields. */
  readonly form: Readonly<Record<string, string>>;
  readonly credential: Credential;
  readonly maxResponseBytes: number;
}

/** The settings a token request is made from. */
interface TokenSettings {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope?: string | undefined;
  readonly audience?: string | undefined;
  readonly authMethod?: 'client_secret_basic' | 'client_secret_post' | undefined;
}

/** Builds the token request, refusing a token URL that is not an absolute http(s) URL. */
export function tokenEndpoint(settings: TokenSettings): TokenEndpoint {
  const url = parseTokenUrl(settings.tokenUrl);
  const form: Record<string, string> = { grant_type: 'client_credentials' };
  if (settings.scope !== undefined) form.scope = settings.scope;
  if (settings.audience !== undefined) form.audience = settings.audience;
  const secrets = [settings.clientSecret, formEncode(settings.clientSecret)];
  let credential: Credential;
  if (settings.authMethod === 'client_secret_post') {
    form.client_id = settings.clientId;
    form.client_secret = settings.clientSecret;
    credential = { fixed: { header: undefined, secrets } };
  } else {
    // RFC 6749 section 2.3.1: each part form-encoded, then joined by a colon, then Base64.
    const basic = btoa(`${formEncode(settings.clientId)}:${formEncode(settings.clientSecret)}`);
    credential = { fixed: { header: `Basic ${basic}`, secrets: [basic, ...secrets] } };
  }
  return {
    name: 'oauth.token',
    method: 'POST',
    // The form is built here, from validated options: nothing to check again.
    input: z.custom<Record<string, string>>(),
    path: () => url.pathname + url.search,
    body: (fields) => fields,
    encoding: 'form',
    output: tokenResponseSchema(),
    maxResponseBytes: MAX_TOKEN_RESPONSE_BYTES,
    origin: url.origin,
    form,
    credential,
  };
}

function parseTokenUrl(tokenUrl: string): URL {
  if (!urlCharacters.test(tokenUrl)) {
    throw new AgentChatError(
      `Invalid clientCredentials options: tokenUrl: must not contain whitespace or control characters, received ${JSON.stringify(tokenUrl)}`,
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(tokenUrl);
  } catch {
    // Reported below.
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash) {
    throw new AgentChatError(
      `Invalid clientCredentials options: tokenUrl: expected an absolute http(s) URL without a fragment, received ${JSON.stringify(tokenUrl)}`,
    );
  }
  if (url.username || url.password) {
    throw new AgentChatError(
      'Invalid clientCredentials options: tokenUrl: must not carry credentials; pass clientId and clientSecret',
    );
  }
  return url;
}

/** application/x-www-form-urlencoded, as URLSearchParams writes it: a space is `+`. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
