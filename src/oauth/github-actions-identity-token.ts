/**
 * GitHub Actions' OIDC token, asked of the runner for the job at hand: `GET
 * $ACTIONS_ID_TOKEN_REQUEST_URL&audience=...` with `Authorization: Bearer
 * $ACTIONS_ID_TOKEN_REQUEST_TOKEN`, answered `{ "value": "<JWT>" }`. The runner sets both variables
 * only for a job granted `permissions: id-token: write`.
 */
import { ConfigurationError, OAuthError } from '../core/errors/index.js';
import { readEnv } from '../internal/env.js';
import { type IdentityTokenSource, requestFromPlatform } from './identity-token.js';

/**
 * Options of {@link githubActionsIdentityToken}.
 *
 * @example
 * ```ts
 * const options: GitHubActionsIdentityTokenOptions = { audience: 'https://auth.example.com' };
 * ```
 */
export interface GitHubActionsIdentityTokenOptions {
  /**
   * The `aud` the token is issued for: what the authorization server's trust for GitHub's issuer
   * expects, often its own issuer URL.
   * @default GitHub's own: the URL of the repository owner, `https://github.com/<owner>`
   */
  audience?: string | undefined;
}

/** What to fix, by what the runner answered. */
function hint(status: number): string {
  if (status === 401 || status === 403) {
    return 'the runner refused the request token: give the job `permissions: id-token: write`, and run the step in the job it was issued for';
  }
  return 'GitHub Actions sets ACTIONS_ID_TOKEN_REQUEST_URL for a job with `permissions: id-token: write`; check that the step runs on a GitHub-hosted or self-hosted runner that can reach it';
}

/**
 * An identity source for GitHub Actions: asks the runner for the job's OIDC token (issuer
 * `https://token.actions.githubusercontent.com`) for `audience`, once per token request, through
 * the provider's `fetch`. The job needs `permissions: id-token: write`; without it the runner sets
 * neither `ACTIONS_ID_TOKEN_REQUEST_URL` nor `ACTIONS_ID_TOKEN_REQUEST_TOKEN`, and this refuses at
 * once with a {@link ConfigurationError} that says so. A refusal or an unreachable runner fails
 * the call with {@link OAuthError}.
 *
 * @throws {@link ConfigurationError} when the variables are not set, or `audience` is not a non-empty string.
 * @example
 * ```ts
 * const apiKey = workloadIdentity({
 *   issuer: 'https://auth.example.com',
 *   identityToken: githubActionsIdentityToken({ audience: 'https://auth.example.com' }),
 * });
 * ```
 */
export function githubActionsIdentityToken(
  options: GitHubActionsIdentityTokenOptions = {},
): IdentityTokenSource {
  const audience = (options as { audience?: unknown } | undefined)?.audience;
  if (audience !== undefined && (typeof audience !== 'string' || audience.trim() === '')) {
    throw new ConfigurationError(
      'githubActionsIdentityToken: audience: expected a non-empty string, such as the authorization server URL',
    );
  }
  const requestUrl = readEnv('ACTIONS_ID_TOKEN_REQUEST_URL');
  const requestToken = readEnv('ACTIONS_ID_TOKEN_REQUEST_TOKEN');
  if (requestUrl === undefined || requestToken === undefined) {
    const missing = [
      requestUrl === undefined ? 'ACTIONS_ID_TOKEN_REQUEST_URL' : [],
      requestToken === undefined ? 'ACTIONS_ID_TOKEN_REQUEST_TOKEN' : [],
    ].flat();
    throw new ConfigurationError(
      `githubActionsIdentityToken: ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set: GitHub Actions sets them only for a job with \`permissions: id-token: write\`; add it to the workflow or the job`,
    );
  }
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    throw new ConfigurationError(
      'githubActionsIdentityToken: ACTIONS_ID_TOKEN_REQUEST_URL is not a URL; it is set by the GitHub Actions runner, not by hand',
    );
  }
  if (audience !== undefined) url.searchParams.set('audience', audience);
  return async function githubActionsToken(context) {
    const { text } = await requestFromPlatform(
      {
        platform: 'GitHub Actions',
        url,
        headers: {
          authorization: `Bearer ${requestToken}`,
          accept: 'application/json; api-version=2.0',
        },
        hint,
      },
      context,
    );
    let value: unknown;
    try {
      value = (JSON.parse(text) as { value?: unknown }).value;
    } catch {
      // Never the parser's message: it may quote the body.
    }
    if (typeof value !== 'string' || value === '') {
      throw new OAuthError({
        status: 200,
        problem: `GitHub Actions: the runner answered no token (expected {"value": "<JWT>"}) from ${url.origin}${url.pathname}; ${hint(200)}`,
      });
    }
    return value;
  };
}
