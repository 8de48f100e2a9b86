/**
 * Google Cloud's identity token, asked of the metadata server for the service account the workload
 * runs as (GKE with Workload Identity Federation, Cloud Run, Cloud Functions, Compute Engine):
 * `GET http://$GCE_METADATA_HOST/computeMetadata/v1/instance/service-accounts/default/identity
 * ?audience=...&format=full` with `Metadata-Flavor: Google`, answered with the JWT as text.
 */
import { ConfigurationError, OAuthError } from '../core/errors/index.js';
import { readEnv } from '../internal/env.js';
import { type IdentityTokenSource, requestFromPlatform } from './identity-token.js';

/**
 * Options of {@link googleIdentityToken}.
 *
 * @example
 * ```ts
 * const options: GoogleIdentityTokenOptions = { audience: 'https://auth.example.com' };
 * ```
 */
export interface GoogleIdentityTokenOptions {
  /**
   * The `aud` the token is issued for: what the authorization server's trust for Google expects.
   * @default none: required, as the metadata server issues no token without one
   */
  audience: string;
}

/** The metadata server's name on Google Cloud, when `GCE_METADATA_HOST` does not name another. */
const DEFAULT_METADATA_HOST = 'metadata.google.internal';

const IDENTITY_PATH = '/computeMetadata/v1/instance/service-accounts/default/identity';

/** What to fix, by what the metadata server answered. */
function hint(status: number): string {
  if (status === 0) {
    return 'the metadata server answers only on Google Cloud (GKE with Workload Identity Federation, Cloud Run, Compute Engine); elsewhere set GCE_METADATA_HOST to the host of one, or use identityTokenFile';
  }
  if (status === 404) {
    return "no service account is attached: attach one to the Cloud Run service or the VM, or on GKE enable Workload Identity Federation on the node pool and bind the pod's Kubernetes service account";
  }
  return 'check the service account the workload runs as, and that GCE_METADATA_HOST (if set) names the metadata server';
}

/**
 * An identity source for Google Cloud: asks the metadata server for an ID token of the workload's
 * service account for `audience` (issuer `https://accounts.google.com`), once per token request,
 * through the provider's `fetch`. The server's host is `GCE_METADATA_HOST` when set (as Google's
 * own libraries read it: an emulator, a proxy), else `metadata.google.internal`. An answer without
 * `Metadata-Flavor: Google` is not the metadata server's and is refused. Every failure is an
 * {@link OAuthError} naming what to check.
 *
 * @throws {@link ConfigurationError} when `audience` is missing, or `GCE_METADATA_HOST` is not a host.
 * @example
 * ```ts
 * const apiKey = workloadIdentity({
 *   issuer: 'https://auth.example.com',
 *   identityToken: googleIdentityToken({ audience: 'https://auth.example.com' }),
 * });
 * ```
 */
export function googleIdentityToken(options: GoogleIdentityTokenOptions): IdentityTokenSource {
  const audience = (options as { audience?: unknown } | undefined)?.audience;
  if (typeof audience !== 'string' || audience.trim() === '') {
    throw new ConfigurationError(
      'googleIdentityToken: audience: required, the aud the authorization server expects (such as its URL)',
    );
  }
  const host = readEnv('GCE_METADATA_HOST') ?? DEFAULT_METADATA_HOST;
  let url: URL | undefined;
  try {
    url = new URL(`http://${host}${IDENTITY_PATH}`);
  } catch {
    // Said below.
  }
  if (!url || url.pathname !== IDENTITY_PATH || url.username || url.search) {
    throw new ConfigurationError(
      `googleIdentityToken: GCE_METADATA_HOST must be a host, with a port if need be (such as 169.254.169.254 or 127.0.0.1:8080), received ${JSON.stringify(host)}`,
    );
  }
  url.searchParams.set('audience', audience);
  url.searchParams.set('format', 'full');
  const request = {
    platform: 'Google Cloud metadata server',
    url,
    headers: { 'metadata-flavor': 'Google' },
    hint,
  };
  return async function googleToken(context) {
    const { text, headers } = await requestFromPlatform(request, context);
    if (headers.get('metadata-flavor') !== 'Google') {
      throw new OAuthError({
        status: 200,
        problem: `Google Cloud metadata server: the answer from ${url.origin} lacks Metadata-Flavor: Google, so it is not the metadata server's; check GCE_METADATA_HOST and any proxy in between`,
      });
    }
    return text;
  };
}
