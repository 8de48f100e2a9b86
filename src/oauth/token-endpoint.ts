/**
 * A token request as an endpoint the transport can send: a form POST with its grant (RFC 6749
 * section 4.4's `client_credentials`, or the grants of workload identity federation), the client
 * authenticated by HTTP Basic, in the body, or by a JWT assertion, and the answer's shape.
 */
import * as z from 'zod/mini';
import type { Endpoint } from '../core/call.js';
import type { Credential } from '../core/credential.js';
import { ConfigurationError } from '../core/errors/index.js';
import { urlCharacters } from '../core/options.js';
import { accessTokenProblem, MAX_TOKEN_RESPONSE_BYTES } from './access-token.js';
import { JWT_BEARER_ASSERTION } from './client-assertion.js';

/**
 * What a token endpoint answers (RFC 6749 section 5.1); other fields are kept and ignored (a
 * grant may check more of them: workload-identity.ts does a token exchange's). Made when a
 * provider is, not when the module loads: a bundle that never uses client credentials then drops
 * it, and the zod schema kinds only it needs, entirely.
 */
export function tokenResponseSchema() {
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

/** A token endpoint's answer, once checked by {@link tokenResponseSchema}. */
export type TokenResponse = z.output<ReturnType<typeof tokenResponseSchema>>;

/** The schema a provider checks its token endpoint's answers with. */
export type TokenResponseSchema = ReturnType<typeof tokenResponseSchema>;

/** The form of a token request: name and value pairs, since `resource` may repeat. */
export type TokenForm = readonly (readonly [string, string])[];

/**
 * The token request for one provider: where it goes, and an answer that is a JSON object. The
 * provider checks the answer itself ({@link tokenResponseSchema}), since only it knows which of its
 * fields are tokens, to be left out of the error an answer it refuses becomes.
 */
export type TokenEndpoint = Endpoint<TokenForm, Readonly<Record<string, unknown>>>;

/** What a token request asks for: the grant and its parameters, but not who asks. */
export interface TokenRequestSettings {
  readonly scope?: string | undefined;
  readonly audience?: string | undefined;
  readonly resource?: string | readonly string[] | undefined;
}

/**
 * How the client proves who it is to the token endpoint: form fields and a header, the same on
 * every attempt, with the secrets an answer must never quote.
 */
export interface ClientAuthentication {
  readonly fields: TokenForm;
  readonly credential: Extract<Credential, { readonly fixed: unknown }>;
}

/**
 * The token request to `url` (an absolute URL, checked by {@link parseTokenUrl}): sent through a
 * transport whose base URL is empty, since the endpoint may be on any origin its issuer names.
 */
export function tokenEndpoint(url: URL): TokenEndpoint {
  return {
    name: 'oauth.token',
    method: 'POST',
    // The form is built here, from validated options: nothing to check again.
    input: z.custom<TokenForm>(),
    path: () => url.href,
    body: (fields) => fields,
    encoding: 'form',
    output: z.looseObject({}),
    maxResponseBytes: MAX_TOKEN_RESPONSE_BYTES,
  };
}

/**
 * The grant's fields: `grant_type` (`client_credentials`, or a URN such as RFC 7523's jwt-bearer),
 * the grant's own `parameters` that stay the same from one request to the next, then `scope`,
 * `audience` and each `resource` given.
 */
export function grantFields(
  grantType: string,
  settings: TokenRequestSettings,
  parameters: TokenForm = [],
): TokenForm {
  const fields: (readonly [string, string])[] = [['grant_type', grantType], ...parameters];
  if (settings.scope !== undefined) fields.push(['scope', settings.scope]);
  if (settings.audience !== undefined) fields.push(['audience', settings.audience]);
  // RFC 8707 section 2: one `resource` parameter per resource.
  const resources = settings.resource === undefined ? [] : [settings.resource].flat();
  for (const resource of resources) fields.push(['resource', resource]);
  return fields;
}

/**
 * Authentication by the client secret: HTTP Basic (`client_secret_basic`, RFC 6749 section
 * 2.3.1: each part form-encoded, joined by a colon, then Base64) or in the form
 * (`client_secret_post`).
 */
export function secretAuthentication(
  clientId: string,
  clientSecret: string,
  method: 'client_secret_basic' | 'client_secret_post',
): ClientAuthentication {
  const secrets = [clientSecret, formEncode(clientSecret)];
  if (method === 'client_secret_post') {
    return {
      fields: [
        ['client_id', clientId],
        ['client_secret', clientSecret],
      ],
      credential: { fixed: { header: undefined, secrets } },
    };
  }
  const basic = btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`);
  return {
    fields: [],
    credential: { fixed: { header: `Basic ${basic}`, secrets: [basic, ...secrets] } },
  };
}

/**
 * Authentication by a JWT assertion (RFC 7523 section 2.2), signed by the client or handed over
 * by its platform. `client_id` goes too: RFC 7521 allows it, and Entra ID requires it.
 */
export function assertionAuthentication(clientId: string, assertion: string): ClientAuthentication {
  return {
    fields: [
      ['client_id', clientId],
      ['client_assertion_type', JWT_BEARER_ASSERTION],
      ['client_assertion', assertion],
    ],
    credential: { fixed: { header: undefined, secrets: [assertion] } },
  };
}

/**
 * Checks a token URL (given, or named by the issuer's metadata): an absolute http(s) URL without
 * a fragment or credentials. `name` says where it came from, and `factory` what took it, for the
 * message.
 *
 * @throws ConfigurationError naming `name` and what is wrong; a caller reading a server's document
 * rather than the options turns it into the server's failure.
 */
export function parseTokenUrl(
  tokenUrl: string,
  name = 'tokenUrl',
  factory = 'clientCredentials',
): URL {
  if (!urlCharacters.test(tokenUrl)) {
    throw new ConfigurationError(
      `Invalid ${factory} options: ${name}: must not contain whitespace or control characters, received ${JSON.stringify(tokenUrl)}`,
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(tokenUrl);
  } catch {
    // Reported below.
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash) {
    throw new ConfigurationError(
      `Invalid ${factory} options: ${name}: expected an absolute http(s) URL without a fragment, received ${JSON.stringify(tokenUrl)}`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigurationError(
      `Invalid ${factory} options: ${name}: must not carry credentials; pass clientId and clientSecret`,
    );
  }
  return url;
}

/** application/x-www-form-urlencoded, as URLSearchParams writes it: a space is `+`. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
