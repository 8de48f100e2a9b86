/**
 * Workload identity federation at the mock's token endpoint: a workload's identity token (from
 * GitHub Actions, a Kubernetes cluster, a cloud's metadata server, or the local issuer of
 * `createLocalIssuer`) traded for an access token, by RFC 7523's jwt-bearer grant (`assertion`)
 * or RFC 8693's token exchange (`subject_token`). Taken only from the issuers the mock trusts
 * (`trustedIssuers`, `agentchat-mock --trust-issuer`); any other token is `invalid_grant`, its
 * description naming the check it failed.
 */
import { oauthErrorResponse } from '../../http/oauth-error.js';
import { ACCESS_TOKEN_TYPE } from '../../serializers/token.js';
import type { TokenGrantType } from '../../store/tokens.js';
import type { EndpointContext } from '../endpoint.js';
import { authenticate, issue, type OneClientAuthentication } from './token-issuance.js';

/** The grant types of workload identity federation, by their URIs, and their parameter. */
export const FEDERATION_GRANTS = {
  'urn:ietf:params:oauth:grant-type:jwt-bearer': { grant: 'jwt-bearer', parameter: 'assertion' },
  'urn:ietf:params:oauth:grant-type:token-exchange': {
    grant: 'token-exchange',
    parameter: 'subject_token',
  },
} as const satisfies Record<string, { grant: TokenGrantType; parameter: string }>;

/** The subject token types a token exchange takes: identity tokens are JWTs (RFC 8693 section 3). */
const SUBJECT_TOKEN_TYPES = [
  'urn:ietf:params:oauth:token-type:jwt',
  'urn:ietf:params:oauth:token-type:id_token',
];

/**
 * Answers a token request of a federation grant. Checks, in order: that issuers are trusted at
 * all, the client (none, a public `client_id`, or a client with its secret), the grant's
 * parameters, the identity token itself, then the scope; issues a bearer token to the client, or
 * to the token's subject when no client is named.
 *
 * @example
 * ```ts
 * // grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<identity token>
 * // 200 {"access_token":"at_...","token_type":"Bearer","expires_in":3600}
 * ```
 */
export async function federationGrant(
  grantType: keyof typeof FEDERATION_GRANTS,
  client: OneClientAuthentication,
  form: URLSearchParams,
  context: EndpointContext,
): Promise<Response> {
  const { grant, parameter } = FEDERATION_GRANTS[grantType];
  const { identities } = context.oauth;
  if (!identities) {
    return oauthErrorResponse(
      'unsupported_grant_type',
      `The grant type ${grantType} needs an issuer of identity tokens to trust: create the mock with trustedIssuers, or start agentchat-mock with --trust-issuer <issuer URL>`,
    );
  }

  // A workload names its client by client_id alone (a public client) or sends nothing; a secret,
  // when sent, must be right.
  const publicClient = client.kind === 'credentials' && client.clientSecret === '';
  let clientId: string | undefined;
  let scopes: readonly string[] | undefined;
  if (publicClient) clientId = client.clientId;
  else if (client.kind !== 'none') {
    const registered = authenticate(client, context);
    if (registered instanceof Response) return registered;
    ({ clientId, scopes } = registered);
  }

  const token = form.get(parameter) || undefined;
  if (token === undefined) {
    return oauthErrorResponse('invalid_request', `The ${parameter} parameter is missing`);
  }
  if (grant === 'token-exchange') {
    const problem = tokenExchangeProblem(form);
    if (problem) return oauthErrorResponse('invalid_request', problem);
  }

  const verdict = await identities.verify(token, parameter);
  if (!verdict.ok) return oauthErrorResponse('invalid_grant', verdict.reason);
  const { issuer, subject } = verdict;
  return issue(form, scopes, context, {
    clientId: clientId ?? subject,
    grant,
    identity: { issuer, subject },
  });
}

/** What RFC 8693 asks of an exchange's token types that this one breaks, if anything. */
function tokenExchangeProblem(form: URLSearchParams): string | undefined {
  const subjectType = form.get('subject_token_type') || undefined;
  if (subjectType === undefined) return 'The subject_token_type parameter is missing';
  if (!SUBJECT_TOKEN_TYPES.includes(subjectType)) {
    return `The subject_token_type must be ${SUBJECT_TOKEN_TYPES.join(' or ')}: the mock exchanges identity tokens`;
  }
  const requested = form.get('requested_token_type') || undefined;
  if (requested !== undefined && requested !== ACCESS_TOKEN_TYPE) {
    return `The requested_token_type must be ${ACCESS_TOKEN_TYPE}: the mock issues access tokens only`;
  }
  return undefined;
}
