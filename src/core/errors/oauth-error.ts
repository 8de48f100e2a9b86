import { AgentChatError, requestIdSuffix } from './agentchat-error.js';

/**
 * The OAuth 2.0 token endpoint refused to issue a token (RFC 6749 section 5.2): wrong client
 * credentials (`invalid_client`, status 401), a scope it does not grant (`invalid_scope`), and so
 * on; or it answered an `access_token` that cannot be sent as `Authorization: Bearer <token>`
 * (outside RFC 6750's `b64token` characters, such as a trailing space or a line break), which is
 * then never used nor cached; or no token could be asked for: the issuer's metadata names another
 * issuer (the mix-up defence) or cannot be found, a `clientAssertion` callback failed or answered
 * nothing, a `privateKey` could not sign, a workload's identity source failed (its message names
 * the platform setting to check) or answered a token that cannot be a JWT. Nothing was sent to the service. Not retried: asking again with the
 * same credentials cannot succeed; the next call asks the endpoint again. A token endpoint that is down fails with {@link APIConnectionError} or the status's
 * {@link APIError} instead, after the usual retries.
 *
 * @example
 * ```ts
 * try {
 *   await client.projects.get('proj_123');
 * } catch (error) {
 *   if (error instanceof OAuthError && error.error === 'invalid_client') {
 *     console.error('Check AGENTCHAT_CLIENT_ID and AGENTCHAT_CLIENT_SECRET:', error.errorDescription);
 *   }
 * }
 * ```
 */
export class OAuthError extends AgentChatError {
  static override readonly errorName: string = 'OAuthError';
  /** The RFC 6749 error code, such as `invalid_client`, when the endpoint gave one. */
  readonly error: string | undefined;
  /** The endpoint's own explanation (`error_description`), when it gave one. */
  readonly errorDescription: string | undefined;
  /**
   * The HTTP status of the token endpoint's answer, such as 400 or 401; for a failure found before
   * a token was asked for, the status of what was read (200 for a metadata document naming another
   * issuer, 404 when there was none), of the platform's answer when an identity source's request
   * was refused (403 from a GitHub Actions runner), or 0 when nothing was read (a `clientAssertion`
   * callback that failed, a `privateKey` that cannot sign, a token file that cannot be read).
   */
  readonly status: number;
  /** The `x-request-id` of the answer, when the endpoint sent one. */
  readonly requestId: string | undefined;

  constructor(details: {
    readonly status: number;
    readonly error?: string | undefined;
    readonly errorDescription?: string | undefined;
    readonly requestId?: string | undefined;
    /**
     * What was wrong with a token the endpoint answered with a success status, such as `character
     * 41 is U+0020, ...`: the endpoint did not refuse, it answered a token that cannot be sent.
     */
    readonly unsendableToken?: string | undefined;
    /**
     * What went wrong before a token could be asked for, such as a metadata document naming
     * another issuer, or an assertion that could not be made; it never quotes a secret.
     */
    readonly problem?: string | undefined;
  }) {
    const reason = [details.error, details.errorDescription].filter(Boolean).join(': ');
    const what = details.unsendableToken
      ? `answered an access_token that cannot be sent (${details.unsendableToken}; status ${details.status})`
      : `refused to issue a token (status ${details.status}${reason ? `, ${reason}` : ''})`;
    super(
      `${details.problem ? `OAuth 2.0: ${details.problem}` : `The OAuth 2.0 token endpoint ${what}`}; nothing was sent to the service${requestIdSuffix(details.requestId)}`,
    );
    this.status = details.status;
    this.error = details.error;
    this.errorDescription = details.errorDescription;
    this.requestId = details.requestId;
  }
}
