/**
 * The person's sign-in at the company's identity provider, by openid-client: OpenID Connect
 * authorization code with PKCE (S256) and a nonce, as the one confidential client the front is
 * registered as there. No `resource` is sent (Entra ID's v2 endpoint refuses it). The ID token is
 * verified whole, its signature included (openid-client's non-repudiation checks), its issuer,
 * audience, nonce and expiry by openid-client's own checks.
 */
import type * as Oidc from 'openid-client';
import type { FetchOptions } from '../../core/fetch-options.js';
import { deepestCause } from '../../core/server-runtime.js';
import type { Logger } from '../../index.js';
import { cut } from '../../internal/cut.js';
import { isLoopback } from '../../internal/platform.js';
import { boundedFetch } from '../bounded-fetch.js';
import { UpstreamUnreachableError } from './options.js';
import { outageLog } from './outage-log.js';

/** How long one exchange with the upstream may take, in seconds. */
const UPSTREAM_TIMEOUT_S = 10;

/** The upstream settings, checked by the handler. */
export interface UpstreamOptions {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly scope: string;
  /** `<origin of the resource>/oauth/callback`, registered at the upstream. */
  readonly redirectUri: string;
  /** The openid-client module, imported when the front loads (see provider.ts's `engine`). */
  readonly client: typeof Oidc;
  /** Merged into every fetch to the upstream: a proxy, a private CA (see docs/networks.md). */
  readonly fetchOptions?: FetchOptions | undefined;
  /** Where a refusal at the upstream's token endpoint is told, one line each; nowhere without. */
  readonly logger?: Logger | undefined;
}

/** What the front keeps between sending a person upstream and their return. */
export interface UpstreamChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/**
 * The upstream's OAuth errors that the host is told of, as the front's own answer to it: the
 * person cancelled or was refused (`access_denied`), or the upstream could not serve them now.
 * Any other error is the front's configuration at the upstream (a scope, a client, a URI), which
 * the person sees on the front's error page, to take to whoever runs it.
 */
const FOR_THE_HOST = ['access_denied', 'temporarily_unavailable', 'server_error'] as const;

/** An upstream OAuth error the host is told of. */
export type HostError = (typeof FOR_THE_HOST)[number];

/** How a person's sign-in upstream ended: who they are, or an error for the host. */
export type UpstreamOutcome = { readonly subject: string } | { readonly hostError: HostError };

/** The upstream sign-in: the URL to send a person to, and the subject they come back as. */
export interface Upstream {
  /**
   * Discovers the upstream now, if not yet.
   *
   * @throws an Error naming the issuer and why it could not be discovered.
   */
  discover(): Promise<void>;
  /** A fresh state, nonce and PKCE verifier, and the authorization URL they go with. */
  start(): Promise<{ url: URL; checks: UpstreamChecks }>;
  /**
   * The subject of the person the callback at `callbackUrl` (the URL the browser came back to)
   * names, once the code is exchanged and the ID token verified; or, where the upstream answered
   * one of the errors a host is told of (its state and issuer checked first), that error.
   *
   * @throws an Error saying why the upstream's answer was refused.
   */
  finish(callbackUrl: URL, checks: UpstreamChecks): Promise<UpstreamOutcome>;
}

/**
 * The upstream sign-in; discovery happens on first use and is kept once it succeeds.
 *
 * @example
 * ```ts
 * const upstream = createUpstream({ issuer, clientId, clientSecret, scope: 'openid', redirectUri });
 * const { url, checks } = await upstream.start();
 * ```
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const oidc = options.client;
  // A failure to reach it at a sign-in: once in the log with the detail, until one succeeds.
  const availability = outageLog(
    options.logger,
    `the identity provider at ${options.issuer}`,
    'sign-ins that reach it fail until it is back',
  );
  let configuration: Promise<Oidc.Configuration> | undefined;
  const configured = () => {
    configuration ??= discover(options).catch((error: unknown) => {
      // Not kept: an upstream down at start does not need a restart.
      configuration = undefined;
      throw new UpstreamUnreachableError(
        `${options.issuer} could not be discovered: ${refusal(error)}`,
        { cause: error },
      );
    });
    return configuration;
  };

  return {
    async discover() {
      await configured();
    },
    async start() {
      const config = await configured();
      const checks = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: options.scope,
        response_type: 'code',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, checks };
    },
    async finish(callbackUrl, checks) {
      const config = await configured();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedNonce: checks.nonce,
          expectedState: checks.state,
          idTokenExpected: true,
        });
      } catch (error) {
        // openid-client raises an error answer only once its state (and issuer) are checked.
        if (error instanceof oidc.AuthorizationResponseError) {
          const hostError = FOR_THE_HOST.find((known) => known === error.error);
          if (hostError !== undefined) return { hostError };
          throw new Error(answered(error.error, error.error_description), { cause: error });
        }
        const code = tokenEndpointError(oidc, error);
        if (code !== undefined) {
          // The front's own set-up at the upstream (a wrong secret: invalid_client), for the
          // operator: one line with the code and what the upstream said, never a secret sent.
          const said = quoted(code.error, code.description);
          options.logger?.warn(
            `agentchat-mcp: sign-in front: the token endpoint of ${options.issuer} refused the front's code exchange: ${said}`,
          );
          throw new Error(`its token endpoint answered ${said}`, { cause: error });
        }
        if (!unreached(error)) throw new Error(refusal(error), { cause: error });
        // Where it is and the connection's error are the log's; the person's page says what
        // failed in general words.
        availability.down(refusal(error));
        throw new Error(
          `the identity provider could not be reached${timedOut(error) ? ' (it timed out)' : ''}`,
          { cause: error },
        );
      }
      availability.up();
      const subject = tokens.claims()?.sub;
      if (typeof subject !== 'string' || subject === '') {
        throw new Error('the ID token names no subject');
      }
      return { subject };
    },
  };
}

/**
 * The OAuth error the upstream's token endpoint answered, in its body (`ResponseBodyError`) or
 * in a `WWW-Authenticate` challenge; `undefined` for any other failure.
 */
function tokenEndpointError(
  oidc: typeof Oidc,
  error: unknown,
): { error: string; description: string | undefined } | undefined {
  if (error instanceof oidc.ResponseBodyError) {
    return { error: error.error, description: error.error_description };
  }
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    const parameters = error.cause[0]?.parameters;
    if (typeof parameters?.error === 'string') {
      return { error: parameters.error, description: parameters.error_description };
    }
  }
  return undefined;
}

/**
 * True when the exchange with the upstream failed on the way (a connection refused or reset, a
 * timeout, a name that does not resolve, a certificate), not on what it answered.
 */
function unreached(error: unknown): boolean {
  return timedOut(error) || hasSystemCause(error);
}

/** True when a timeout is anywhere in `error`'s causes. */
function timedOut(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at.cause) {
    if (at.name === 'TimeoutError') return true;
  }
  return false;
}

/**
 * True when a system, TLS or undici error (`ECONNREFUSED`, `CERT_HAS_EXPIRED`, `UND_ERR_SOCKET`)
 * is `error` or among its causes.
 */
function hasSystemCause(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at.cause) {
    const { code } = at as { code?: unknown };
    if (
      typeof code === 'string' &&
      /^(E[A-Z]+$|UND_ERR|CERT_|ERR_TLS|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)
    )
      return true;
  }
  return false;
}

/** The longest error description of the upstream's quoted on the person's error page. */
const MAX_DESCRIPTION_CHARS = 300;

/** The upstream's error answer, for the person's error page: its code and what it said. */
function answered(code: string, description: string | undefined): string {
  return `it answered ${quoted(code, description)}`;
}

/** An OAuth error's code, and its description cut to a length a page and a log line take. */
function quoted(code: string, description: string | undefined): string {
  return description ? `${code}: ${cut(description, MAX_DESCRIPTION_CHARS)}` : code;
}

/**
 * Why the upstream's answer was refused, for the person's error page: openid-client's message
 * and its deepest cause's (`unexpected ID Token "nonce" claim value`, `JWT signature
 * verification failed`, a timeout, a proxy's 407, a certificate named), never a token.
 */
function refusal(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return deepestCause(error) ?? error.message;
}

async function discover(options: UpstreamOptions): Promise<Oidc.Configuration> {
  const oidc = options.client;
  const issuer = new URL(options.issuer);
  const upstreamFetch = upstreamFetchOf(options.fetchOptions);
  const authentication =
    options.clientSecret === undefined ? oidc.None() : oidc.ClientSecretPost(options.clientSecret);
  const config = await oidc.discovery(issuer, options.clientId, undefined, authentication, {
    // http only for an upstream on this machine (a test's, a local Keycloak); https elsewhere.
    ...(issuer.protocol === 'http:' && isLoopback(issuer.hostname)
      ? { execute: [oidc.allowInsecureRequests] }
      : {}),
    timeout: UPSTREAM_TIMEOUT_S,
    [oidc.customFetch]: upstreamFetch,
  });
  config[oidc.customFetch] = upstreamFetch;
  config.timeout = UPSTREAM_TIMEOUT_S;
  // The ID token's signature is checked against the upstream's keys, not only its claims.
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** The bounded fetch, with the handler's `fetchOptions`, as openid-client calls it. */
function upstreamFetchOf(fetchOptions: FetchOptions | undefined): Oidc.CustomFetch {
  const fetchBounded = boundedFetch(fetchOptions);
  return (url, init) => fetchBounded(url, init as RequestInit);
}
