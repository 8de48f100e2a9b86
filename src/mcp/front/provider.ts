/**
 * The front's authorization server: oidc-provider (OpenID-certified) configured for MCP hosts.
 * Everything a host talks to is the engine's own: RFC 8414 metadata, RFC 7591 registration,
 * Client ID Metadata Documents, authorization code with PKCE S256 required, RFC 9068 JWT access
 * tokens for the one resource, refresh tokens rotated on every use (a reused one revokes its
 * grant, the whole family), revocation, RFC 9207 `iss` on the redirect. The person's part (the
 * consent page, the upstream sign-in) is in interactions.ts.
 */
import type {
  AdapterConstructor,
  Configuration,
  KoaContextWithOIDC,
  default as Provider,
} from 'oidc-provider';
import { isLoopback } from '../../internal/platform.js';
import { errorPage, PAGE_HEADERS } from './consent-page.js';
import type { SigningKey } from './signing-key.js';

/** Lifetimes, in seconds. */
export const FRONT_TTL = {
  /** At most an hour, as the contract says. */
  AccessToken: 3600,
  /** Single use, and short: the host redeems it at once. */
  AuthorizationCode: 60,
  /** An abandoned authorization is gone after 10 minutes. */
  Interaction: 600,
  /** A person's sign-in at the front, which spares a second upstream trip for a second host. */
  Session: 24 * 3600,
  /** A host keeps a person connected for two weeks of disuse; each use rotates the token. */
  RefreshToken: 14 * 24 * 3600,
  Grant: 14 * 24 * 3600,
} as const;

/** The largest Client ID Metadata Document fetched, in bytes. */
export const MAX_CLIENT_METADATA_BYTES = 65_536;

/** Where the front's endpoints are, under the resource's origin. */
export const FRONT_ROUTES = {
  authorization: '/authorize',
  token: '/token',
  registration: '/register',
  revocation: '/revoke',
  jwks: '/jwks',
} as const;

/** What the provider is made from. */
export interface FrontProviderOptions {
  /** The front's issuer: the origin of the resource. */
  readonly issuer: string;
  /** The MCP endpoint's canonical URL: every access token's `aud`. */
  readonly resource: string;
  /** The scopes of the tools, as tokens must carry them. */
  readonly toolScopes: readonly string[];
  readonly signingKey: SigningKey;
  readonly cookieKeys: readonly string[];
  readonly adapter: AdapterConstructor;
  /**
   * The oidc-provider module, imported by the caller when the front loads: a static import would
   * be a top-level `require` in the CommonJS build, failing for every user of agentchat/mcp
   * without the optional peer.
   */
  readonly engine: typeof import('oidc-provider');
}

/**
 * Makes the provider.
 *
 * @example
 * ```ts
 * const provider = createFrontProvider({ issuer, resource, toolScopes, signingKey, cookieKeys, adapter });
 * ```
 */
export function createFrontProvider(options: FrontProviderOptions): Provider {
  const { issuer, resource, toolScopes, signingKey, cookieKeys, adapter, engine } = options;
  const { default: Provider, errors } = engine;
  const alg = signingKey.privateJwk.alg;
  const configuration: Configuration = {
    adapter,
    jwks: { keys: [signingKey.privateJwk as never] },
    cookies: { keys: [...cookieKeys] },
    // `openid` and `offline_access` stay, or registration refuses the refresh_token grant.
    scopes: ['openid', 'offline_access', ...toolScopes],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: alg as never,
    },
    enabledJWA: { idTokenSigningAlgValues: [alg] as never },
    routes: FRONT_ROUTES,
    ttl: { ...FRONT_TTL },
    // Browser-based hosts (the MCP Inspector) call registration and the token endpoint from the
    // page: any origin may, as each call still needs its client's code, verifier or token.
    clientBasedCORS: () => true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    fetchResponseBodyLimits: { 'client_id metadata document': MAX_CLIENT_METADATA_BYTES },
    // oidc-provider's fetch passes a dispatcher that refuses special-use addresses; a document on
    // this machine itself is fetched without it (see allowFetch).
    ...({
      fetch: (url: string, init: RequestInit & { dispatcher?: unknown }) =>
        globalThis.fetch(url, namesThisMachine(url) ? { ...init, dispatcher: undefined } : init),
    } as object),
    renderError: async (ctx, out) => {
      ctx.status = Math.max(ctx.status, 400);
      ctx.set(PAGE_HEADERS);
      ctx.body = errorPage(
        `The sign-in was refused: ${String(out.error)}`,
        out.error_description === undefined ? undefined : String(out.error_description),
      );
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        // Hosts that name the resource only at /authorize still get tokens for it.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: toolScopes.join(' '),
            audience: resource,
            accessTokenTTL: FRONT_TTL.AccessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: alg as never } },
          };
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: async (_ctx: KoaContextWithOIDC, clientId: string) => allowFetch(clientId),
        // Cached by the document's HTTP caching headers, within 5 minutes and a day.
        cacheDuration: { min: 300, max: 86_400 },
      } as never,
    },
  };
  const provider = new Provider(issuer, configuration);
  // The bridge sets the issuer's host and scheme on every request (bridge.ts).
  provider.proxy = true;
  return provider;
}

/**
 * Whether a Client ID Metadata Document may be fetched. oidc-provider's own fetch refuses every
 * special-use address (private, link-local, loopback) when it connects, so a public name bound to
 * a private address is refused whatever DNS says when asked; a URL naming this machine itself
 * (`localhost`, `127.0.0.1`, `[::1]`) is the one exception, for hosts and tests on it.
 */
function allowFetch(clientId: string): boolean {
  const url = URL.parse(clientId);
  return url !== null && url.protocol === 'https:' && url.pathname !== '/';
}

/** True for a Client ID Metadata Document URL that names this machine. */
export function namesThisMachine(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && isLoopback(parsed.hostname);
}
