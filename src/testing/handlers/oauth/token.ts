import { readClientAuthentication } from '../../http/client-auth.js';
import { NO_STORE, oauthErrorResponse } from '../../http/oauth-error.js';
import { jsonResponse } from '../../http/responses.js';
import { serializeToken } from '../../serializers/token.js';
import { SCOPE_TOKEN } from '../../store/oauth-clients.js';
import type { Endpoint } from '../endpoint.js';

/** The parameters a token request may carry; each at most once (RFC 6749 section 3.2). */
const PARAMETERS = ['grant_type', 'scope', 'audience', 'client_id', 'client_secret'] as const;

/**
 * A challenge on every `invalid_client`: a 401 must carry one (RFC 9110 section 11.6.1), and
 * RFC 6749 section 5.2 asks for the scheme the client tried, which can only have been Basic.
 */
const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="agentchat-mock", charset="UTF-8"' };

/**
 * `POST /oauth/token`: the OAuth 2.0 client credentials grant (RFC 6749 section 4.4). Checks, in
 * order: the form body, each parameter at most once, one client authentication method, a
 * `grant_type`, the client's credentials, the grant type, the scope; then issues a bearer token.
 *
 * @example
 * ```ts
 * // POST {baseUrl}/oauth/token, Authorization: Basic <base64 of "id:secret">
 * // grant_type=client_credentials&scope=projects%3Aread
 * // 200 {"access_token":"at_...","token_type":"Bearer","expires_in":3600,"scope":"projects:read"}
 * ```
 */
export const issueToken: Endpoint = {
  method: 'POST',
  path: '/oauth/token',
  authentication: 'oauth-client',
  handle({ headers, body, oauth }) {
    const mediaType = headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (mediaType !== 'application/x-www-form-urlencoded') {
      return oauthErrorResponse(
        'invalid_request',
        'The token request body must be application/x-www-form-urlencoded',
      );
    }
    const form = new URLSearchParams(body.text);
    const repeated = PARAMETERS.find((name) => form.getAll(name).length > 1);
    if (repeated) {
      return oauthErrorResponse(
        'invalid_request',
        `The ${repeated} parameter is sent more than once`,
      );
    }

    const client = readClientAuthentication(headers.get('authorization'), form);
    if (client.kind === 'several-methods') {
      return oauthErrorResponse(
        'invalid_request',
        'The client authenticates both by HTTP Basic and by client_id/client_secret in the body; use one',
      );
    }
    // A parameter sent without a value counts as omitted (RFC 6749 section 3.2).
    const grantType = form.get('grant_type') || undefined;
    if (grantType === undefined) {
      return oauthErrorResponse('invalid_request', 'The grant_type parameter is missing');
    }

    if (client.kind === 'none') {
      return oauthErrorResponse(
        'invalid_client',
        'No client authentication: send HTTP Basic credentials, or client_id and client_secret',
        BASIC_CHALLENGE,
      );
    }
    if (client.kind === 'unreadable')
      return oauthErrorResponse('invalid_client', client.reason, BASIC_CHALLENGE);
    const registered = oauth.clients.authenticate(client.clientId, client.clientSecret);
    if (!registered) {
      const description =
        client.clientSecret === ''
          ? 'The client_secret is missing'
          : 'Unknown client or wrong secret';
      return oauthErrorResponse(
        'invalid_client',
        `Client authentication failed: ${description}`,
        BASIC_CHALLENGE,
      );
    }

    if (grantType !== 'client_credentials') {
      return oauthErrorResponse(
        'unsupported_grant_type',
        `The grant type ${JSON.stringify(grantType)} is not supported; use client_credentials`,
      );
    }

    const scope = form.get('scope') || undefined;
    const scopeProblem = scope === undefined ? undefined : checkScope(scope, registered.scopes);
    if (scopeProblem) return oauthErrorResponse('invalid_scope', scopeProblem);

    const audience = form.get('audience') || undefined;
    const token = oauth.tokens.issue({
      clientId: registered.clientId,
      ...(scope === undefined ? {} : { scope }),
      ...(audience === undefined ? {} : { audience }),
    });
    return jsonResponse(200, serializeToken(token), NO_STORE);
  },
};

/** Why a scope is refused: its syntax (RFC 6749 section 3.3), or a token the client may not ask for. */
function checkScope(scope: string, allowed: readonly string[] | undefined): string | undefined {
  const tokens = scope.split(' ');
  if (!tokens.every((token) => SCOPE_TOKEN.test(token))) {
    return 'The scope must be scope tokens separated by single spaces (RFC 6749 section 3.3)';
  }
  const refused = allowed ? tokens.filter((token) => !allowed.includes(token)) : [];
  return refused.length > 0
    ? `The client may not ask for the scope ${refused.map((token) => JSON.stringify(token)).join(', ')}`
    : undefined;
}
