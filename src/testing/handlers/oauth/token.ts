import { readClientAuthentication } from '../../http/client-auth.js';
import { oauthErrorResponse } from '../../http/oauth-error.js';
import type { Endpoint } from '../endpoint.js';
import { FEDERATION_GRANTS, federationGrant } from './federation-grants.js';
import { authenticate, issue } from './token-issuance.js';

/** The parameters a token request may carry; each at most once (RFC 6749 section 3.2). */
const PARAMETERS = [
  'grant_type',
  'scope',
  'audience',
  'client_id',
  'client_secret',
  'assertion',
  'subject_token',
  'subject_token_type',
  'requested_token_type',
] as const;

/**
 * `POST /oauth/token`: the OAuth 2.0 client credentials grant (RFC 6749 section 4.4), and, with
 * trusted issuers, a workload's identity token traded by RFC 7523's jwt-bearer grant or RFC 8693's
 * token exchange (see ./federation-grants.ts). Checks, in order: the form body, each parameter at
 * most once, one client authentication method, a `grant_type`; then the grant's own checks, the
 * scope; then issues a bearer token.
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
  handle(context) {
    const { headers, body } = context;
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
    if (Object.hasOwn(FEDERATION_GRANTS, grantType)) {
      return federationGrant(grantType as keyof typeof FEDERATION_GRANTS, client, form, context);
    }

    const registered = authenticate(client, context);
    if (registered instanceof Response) return registered;
    if (grantType !== 'client_credentials') {
      return oauthErrorResponse(
        'unsupported_grant_type',
        `The grant type ${JSON.stringify(grantType)} is not supported; use client_credentials`,
      );
    }
    return issue(form, registered.scopes, context, {
      clientId: registered.clientId,
      grant: 'client-credentials',
    });
  },
};
