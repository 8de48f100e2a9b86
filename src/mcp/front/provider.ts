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
  AdapterPayload,
  Configuration,
  KoaContextWithOIDC,
  default as Provider,
} from 'oidc-provider';
import { REFUSED_CLIENT_METADATA, redirectUriProblem } from './client-rules.js';
import { errorPage, PAGE_HEADERS } from './consent-page.js';
import { documentFetch } from './document-fetch.js';
import type { FrontAdapterConstructor } from './options.js';
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
  readonly adapter: FrontAdapterConstructor;
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
    adapter: redeemedOnce(adapter, errors),
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
    // Only the grant the front's consent check just gave (interactions.ts): every authorization
    // reaches that check, which remembers consent per person, client, redirect URI and scopes,
    // where the engine would reuse a client's grant for any redirect URI.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId === undefined ? undefined : ctx.oidc.provider.Grant.find(grantId);
    },
    // Checked at registration and in every Client ID Metadata Document alike.
    extraClientMetadata: {
      properties: ['redirect_uris', ...REFUSED_CLIENT_METADATA],
      validator: (_ctx, key, value) => {
        if ((REFUSED_CLIENT_METADATA as readonly string[]).includes(key)) {
          if (value === undefined) return;
          throw new errors.InvalidClientMetadata(
            `${key} is not accepted: this server fetches no URL a client names${key === 'jwks_uri' ? '; give the keys inline (jwks)' : ''}`,
          );
        }
        for (const uri of Array.isArray(value) ? value : []) {
          const problem = redirectUriProblem(uri);
          if (problem !== undefined) {
            throw new errors.InvalidClientMetadata(`redirect_uris: ${problem}`);
          }
        }
      },
    },
    // No scope asked: the scopes of the tools the client may use (RFC 6749 section 3.3), where
    // the engine would go on with none and the host get access_denied after the person allowed.
    // The engine's hook for a parameter's default: it runs on the parameters as the engine read
    // them (a query, or a pushed request's form), after its own checks of `scope`, which the
    // default passes by construction (scopes it knows, and only those the client registered).
    extraParams: {
      scope: async (ctx, value, client) => {
        const { params } = ctx.oidc;
        if (value !== undefined || params === undefined) return;
        const registered = client.scope?.split(' ');
        const scopes = toolScopes.filter((name) => registered?.includes(name) ?? true);
        if (scopes.length > 0) params.scope = scopes.join(' ');
      },
    },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    fetchResponseBodyLimits: { 'client_id metadata document': MAX_CLIENT_METADATA_BYTES },
    // Every fetch the engine makes: addresses checked before connecting (document-fetch.ts).
    fetch: documentFetch(MAX_CLIENT_METADATA_BYTES) as never,
    renderError: async (ctx, out) => {
      ctx.status = Math.max(ctx.status, 400);
      ctx.set(PAGE_HEADERS);
      ctx.body = errorPage(
        'The sign-in was refused',
        out.error_description === undefined ? undefined : String(out.error_description),
        String(out.error),
      );
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      // Not offered: the handler routes no `/request` to the engine, and hosts send the person
      // to /authorize with the request itself (a link, or a form: posted-authorization.ts).
      pushedAuthorizationRequests: { enabled: false },
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
 * Whether a Client ID Metadata Document may be fetched: an https URL with a path. Its address is
 * checked when connecting (document-fetch.ts), whatever DNS says.
 */
function allowFetch(clientId: string): boolean {
  const url = URL.parse(clientId);
  return url !== null && url.protocol === 'https:' && url.pathname !== '/';
}

/**
 * `Store` whose `consume` lets one redemption of a code or a refresh token go on: a call that did
 * not consume it (another request did, at once, on any replica) revokes the grant's whole family,
 * as a reused code or refresh token does (RFC 6749 section 4.1.2, RFC 9700 section 4.14.2), and
 * fails with `invalid_grant`.
 */
function redeemedOnce(
  Store: FrontAdapterConstructor,
  errors: typeof import('oidc-provider').errors,
): AdapterConstructor {
  // The engine ignores what `consume` resolves with: a boolean is as good as nothing to it.
  return class RedeemedOnce extends Store {
    override async consume(id: string): Promise<boolean> {
      if (await super.consume(id)) return true;
      const payload = (await this.find(id)) as AdapterPayload | undefined;
      if (payload?.grantId !== undefined) {
        await this.revokeByGrantId(payload.grantId);
        await new Store('Grant').destroy(payload.grantId);
      }
      throw new errors.InvalidGrant('this code or refresh token was already used');
    }
  } as unknown as AdapterConstructor;
}
