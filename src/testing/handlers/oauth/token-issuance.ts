/**
 * What every grant of the token endpoint shares: authenticating a client by its secret, and
 * issuing a token for the scope asked, within the scopes the client may ask for.
 */
import type { ClientAuthentication } from '../../http/client-auth.js';
import { NO_STORE, oauthErrorResponse } from '../../http/oauth-error.js';
import { jsonResponse } from '../../http/responses.js';
import { serializeToken } from '../../serializers/token.js';
import { type OAuthClient, SCOPE_TOKEN } from '../../store/oauth-clients.js';
import type { TokenGrant } from '../../store/tokens.js';
import type { EndpointContext } from '../endpoint.js';

/**
 * A challenge on every `invalid_client`: a 401 must carry one (RFC 9110 section 11.6.1), and
 * RFC 6749 section 5.2 asks for the scheme the client tried, which can only have been Basic.
 */
const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="agentchat-mock", charset="UTF-8"' };

/** How a token request authenticated its client, once it is known to use one method at most. */
export type OneClientAuthentication = Exclude<ClientAuthentication, { kind: 'several-methods' }>;

/**
 * The client a token request authenticated, by its secret, or the `invalid_client` answer: none
 * sent, unreadable, unknown or with a wrong secret.
 */
export function authenticate(
  client: OneClientAuthentication,
  { oauth }: EndpointContext,
): OAuthClient | Response {
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
  if (registered) return registered;
  const description =
    client.clientSecret === '' ? 'The client_secret is missing' : 'Unknown client or wrong secret';
  return oauthErrorResponse(
    'invalid_client',
    `Client authentication failed: ${description}`,
    BASIC_CHALLENGE,
  );
}

/**
 * Checks the scope asked for against the scopes the client may ask for (any, when `allowed` is
 * absent), then issues the token and answers it.
 */
export function issue(
  form: URLSearchParams,
  allowed: readonly string[] | undefined,
  { oauth }: EndpointContext,
  grant: TokenGrant,
): Response {
  const scope = form.get('scope') || undefined;
  const scopeProblem = scope === undefined ? undefined : checkScope(scope, allowed);
  if (scopeProblem) return oauthErrorResponse('invalid_scope', scopeProblem);

  const audience = form.get('audience') || undefined;
  const token = oauth.tokens.issue({
    ...grant,
    ...(scope === undefined ? {} : { scope }),
    ...(audience === undefined ? {} : { audience }),
  });
  return jsonResponse(200, serializeToken(token), NO_STORE);
}

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
