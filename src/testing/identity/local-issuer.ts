/**
 * A local issuer of workload identity tokens, to try `workloadIdentity()` against the mock with no
 * cloud: it signs identity tokens as GitHub Actions, a Kubernetes cluster or a cloud's metadata
 * server would, and serves what a verifier reads (its OpenID discovery document and its key set)
 * as msw handlers, in Node and in browsers alike. `startLocalIssuer` serves the same over HTTP.
 */
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { assertKnownOptions } from '../options.js';
import { discoveryUrl } from './trusted-issuers.js';

/**
 * Options of {@link createLocalIssuer}.
 *
 * @example
 * ```ts
 * const issuer = await createLocalIssuer({ issuer: 'https://ci.example.test' });
 * ```
 */
export interface LocalIssuerOptions {
  /**
   * The issuer identifier, an http(s) URL: the `iss` of its tokens, and where its discovery
   * document and key set are served.
   *
   * @default 'https://issuer.agentchat.test'
   */
  issuer?: string;
}

/**
 * What an identity token of the local issuer says: who the workload is, whom the token is for,
 * and how long it lives.
 *
 * @example
 * ```ts
 * const issuer = await createLocalIssuer();
 * await issuer.signIdentityToken({
 *   subject: 'repo:acme/support-desk:ref:refs/heads/main',
 *   audience: `${mock.baseUrl}/oauth/token`,
 * });
 * ```
 */
export interface IdentityTokenClaims {
  /** The workload, as `sub`: a repository and branch, a service account. */
  subject: string;
  /** Whom the token is for, as `aud`: the token URL of the mock, or the audience it was given. */
  audience: string | readonly string[];
  /**
   * How long the token is valid from `issuedAt`, in whole milliseconds (> 0); `exp` is in whole
   * seconds, rounded down.
   *
   * @default 600000 (10 minutes)
   */
  lifetimeMs?: number;
  /**
   * When it was issued, in milliseconds since the epoch: an hour ago makes a token that has
   * expired.
   *
   * @default Date.now()
   */
  issuedAt?: number;
  /**
   * More claims, as a platform adds them (`repository`, `ref`, `kubernetes.io`); they cannot
   * replace `iss`, `sub`, `aud`, `iat`, `exp` or `jti`.
   *
   * @default none
   */
  claims?: Readonly<Record<string, unknown>>;
}

/**
 * A local issuer of workload identity tokens. Trust it with `createMockService({ trustedIssuers:
 * [issuer.issuer] })` and serve its `handlers` beside the mock's; or run it over HTTP with
 * {@link startLocalIssuer} for `startMockServer` and `agentchat-mock --trust-issuer`.
 *
 * @example
 * ```ts
 * const issuer = await createLocalIssuer();
 * const mock = createMockService({ trustedIssuers: [issuer.issuer] });
 * const server = setupServer(...mock.handlers, ...issuer.handlers);
 * ```
 */
export interface LocalIssuer {
  /** The issuer identifier, the `iss` of its tokens, such as `https://issuer.agentchat.test`. */
  readonly issuer: string;
  /** Its key set's URL, which its discovery document names as `jwks_uri`. */
  readonly jwksUri: string;
  /** msw handlers serving its discovery document and its key set (the public key only). */
  readonly handlers: readonly HttpHandler[];
  /**
   * Signs an identity token (ES256, with a key made for this issuer) for `subject` and `audience`.
   *
   * @throws ConfigurationError for a `subject` or `audience` that is not a non-empty string, a
   * `lifetimeMs` that is not a positive whole number, an `issuedAt` that is not a time, or a claim
   * that would replace one the issuer sets.
   * @example
   * ```ts
   * const issuer = await createLocalIssuer();
   * const expired = await issuer.signIdentityToken({
   *   subject: 'system:serviceaccount:support:desk',
   *   audience: `${mock.baseUrl}/oauth/token`,
   *   issuedAt: Date.now() - 3_600_000,
   * });
   * ```
   */
  signIdentityToken(claims: IdentityTokenClaims): Promise<string>;
}

/** Defaults of {@link LocalIssuerOptions} and {@link IdentityTokenClaims}, in one place. */
const LOCAL_ISSUER_DEFAULTS = {
  issuer: 'https://issuer.agentchat.test',
  /** Ten minutes, as GitHub's and Google's identity tokens live about that long or an hour. */
  lifetimeMs: 600_000,
} as const;

/** The claims the issuer sets itself. */
const ISSUER_CLAIMS = ['iss', 'sub', 'aud', 'iat', 'exp', 'jti', 'nbf'];

/** The key's id in its key set and in each token's header. */
const KEY_ID = 'local-issuer-1';

/**
 * Creates a local issuer of workload identity tokens, with a fresh ES256 key pair.
 *
 * @throws ConfigurationError for an unknown option or an `issuer` that is not an http(s) URL.
 * @example
 * ```ts
 * import { Client, workloadIdentity } from 'agentchat';
 * import { createLocalIssuer, createMockService } from 'agentchat/testing';
 *
 * const issuer = await createLocalIssuer();
 * const mock = createMockService({ trustedIssuers: [issuer.issuer] });
 * const tokenUrl = `${mock.baseUrl}/oauth/token`;
 * const client = new Client({
 *   baseUrl: mock.baseUrl,
 *   apiKey: workloadIdentity({
 *     tokenUrl,
 *     identityToken: () => issuer.signIdentityToken({ subject: 'ci', audience: tokenUrl }),
 *   }),
 * });
 * ```
 */
export async function createLocalIssuer(options: LocalIssuerOptions = {}): Promise<LocalIssuer> {
  assertKnownOptions(options, ['issuer'], 'createLocalIssuer');
  const issuer = options.issuer ?? LOCAL_ISSUER_DEFAULTS.issuer;
  if (
    typeof issuer !== 'string' ||
    !/^https?:$/.test(URL.canParse(issuer) ? new URL(issuer).protocol : '')
  ) {
    throw new ConfigurationError(`issuer must be an http(s) URL, got ${JSON.stringify(issuer)}`);
  }
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'ES256', use: 'sig' };
  const discovery = discoveryUrl(issuer);
  const jwksUri = `${issuer.replace(/\/+$/, '')}/jwks`;

  return {
    issuer,
    jwksUri,
    handlers: [
      http.get(discovery, () =>
        HttpResponse.json({
          issuer,
          jwks_uri: jwksUri,
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['ES256'],
        }),
      ),
      http.get(jwksUri, () => HttpResponse.json({ keys: [jwk] })),
    ],
    async signIdentityToken(claims) {
      const { subject, audience, lifetimeMs, issuedAt, extra } = checkClaims(claims);
      const iat = Math.floor(issuedAt / 1000);
      return new SignJWT({ ...extra })
        .setProtectedHeader({ alg: 'ES256', kid: KEY_ID, typ: 'JWT' })
        .setIssuer(issuer)
        .setSubject(subject)
        .setAudience([...(typeof audience === 'string' ? [audience] : audience)])
        .setIssuedAt(iat)
        .setExpirationTime(Math.floor((issuedAt + lifetimeMs) / 1000))
        .setJti(crypto.randomUUID())
        .sign(privateKey);
    },
  };
}

/** The claims asked for, checked, with the defaults filled in. */
function checkClaims(claims: IdentityTokenClaims) {
  assertKnownOptions(
    claims,
    ['subject', 'audience', 'lifetimeMs', 'issuedAt', 'claims'],
    'signIdentityToken',
    'field',
  );
  const { subject, audience, claims: extra = {} } = claims;
  const lifetimeMs = claims.lifetimeMs ?? LOCAL_ISSUER_DEFAULTS.lifetimeMs;
  const issuedAt = claims.issuedAt ?? Date.now();
  if (typeof subject !== 'string' || subject === '') {
    throw new ConfigurationError(
      `subject must be a non-empty string, got ${JSON.stringify(subject)}`,
    );
  }
  const audiences = typeof audience === 'string' ? [audience] : audience;
  if (
    !Array.isArray(audiences) ||
    audiences.length === 0 ||
    !audiences.every((entry) => typeof entry === 'string' && entry !== '')
  ) {
    throw new ConfigurationError('audience must be a non-empty string, or an array of them');
  }
  if (!Number.isSafeInteger(lifetimeMs) || lifetimeMs <= 0) {
    throw new ConfigurationError(
      `lifetimeMs must be a whole number of milliseconds > 0, got ${lifetimeMs}`,
    );
  }
  if (!Number.isFinite(issuedAt)) {
    throw new ConfigurationError(`issuedAt must be milliseconds since the epoch, got ${issuedAt}`);
  }
  const replaced = Object.keys(extra).find((name) => ISSUER_CLAIMS.includes(name));
  if (replaced !== undefined) {
    throw new ConfigurationError(
      `claims cannot set ${replaced}: the issuer sets it (subject, audience, issuedAt and lifetimeMs say what it holds)`,
    );
  }
  return { subject, audience, lifetimeMs, issuedAt, extra };
}
