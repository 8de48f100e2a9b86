import { randomId } from './ids.js';

/**
 * An access token the mock's token endpoint issued, in {@link MockOAuth.tokens}. Times are
 * milliseconds since the epoch on the mock's clock, `Date.now()`, so fake timers move them.
 *
 * @example
 * ```ts
 * const [token] = mock.oauth.tokens();
 * expect(token).toMatchObject({ clientId: 'reporting', scope: 'projects:read', revoked: false });
 * expect(token && token.expiresAt - token.issuedAt).toBe(3_600_000);
 * ```
 */
export interface IssuedToken {
  /** The bearer token: `at_` followed by 32 random letters and digits. */
  accessToken: string;
  /**
   * The client it was issued to: the authenticated client; for a workload identity grant, the
   * `client_id` sent, or else the identity token's subject.
   */
  clientId: string;
  /**
   * How it was obtained: the client credentials grant, or a workload's identity token traded with
   * RFC 7523's jwt-bearer grant or RFC 8693's token exchange.
   */
  grant: TokenGrantType;
  /** For the workload identity grants: whom the identity token traded for it named. */
  identity?: TokenIdentity;
  /** The scope the client asked for, as sent; absent when it asked for none. */
  scope?: string;
  /** The audience the client asked for; absent when it asked for none. */
  audience?: string;
  /** When it was issued. */
  issuedAt: number;
  /** From this time on, the service refuses it with 401. */
  expiresAt: number;
  /** Revoked by {@link MockOAuth.revokeToken}: refused with 401 from then on. */
  revoked: boolean;
}

/**
 * The grants the mock's token endpoint issues tokens for, named as `workloadIdentity()`'s `grant`
 * names them.
 *
 * @example
 * ```ts
 * const grants: TokenGrantType[] = mock.oauth.tokens().map((token) => token.grant);
 * ```
 */
export type TokenGrantType = 'client-credentials' | 'jwt-bearer' | 'token-exchange';

/**
 * The workload an access token was issued for, as the identity token it traded named it.
 *
 * @example
 * ```ts
 * const [token] = mock.oauth.tokens();
 * expect(token?.identity).toEqual({
 *   issuer: 'https://issuer.agentchat.test',
 *   subject: 'repo:acme/support-desk:ref:refs/heads/main',
 * });
 * ```
 */
export interface TokenIdentity {
  /** The identity token's issuer (`iss`), one the mock trusts. */
  issuer: string;
  /** The identity token's subject (`sub`): the workload. */
  subject: string;
}

/** What the service makes of a bearer token in the mock's token format. */
export type TokenStatus = 'valid' | 'expired' | 'revoked' | 'unknown';

/**
 * The form of the tokens the mock issues. A bearer credential of this form is judged as an
 * access token, never as an API key, so an expired token is refused even when any key is accepted.
 */
const ACCESS_TOKEN_FORM = /^at_[A-Za-z0-9]{32}$/;

/** What a token request asked for, once its client is authenticated. */
export interface TokenGrant {
  clientId: string;
  grant: TokenGrantType;
  identity?: TokenIdentity;
  scope?: string;
  audience?: string;
}

/** The mock's issued access tokens. */
export interface TokenStore {
  /** Whether a bearer credential has the form of the mock's access tokens. */
  isAccessToken(credential: string): boolean;
  issue(grant: TokenGrant): IssuedToken;
  status(accessToken: string): TokenStatus;
  /** The client a token the mock issued belongs to, whatever its status; `undefined` for others. */
  clientOf(accessToken: string): string | undefined;
  /** Makes every token expire now. */
  expireAll(): void;
  /** Revokes one token; `false` when the mock never issued it. */
  revoke(accessToken: string): boolean;
  /** Copies, oldest first, so a test cannot change the store by editing what it read. */
  list(): IssuedToken[];
  clear(): void;
}

/**
 * How many issued tokens the store keeps, whatever clients ask for: each token request issues one,
 * so a mock serving for hours, or a client asking in a loop, would otherwise grow with every
 * request. Past it the oldest are forgotten first, and a request bearing one is answered 401 as
 * for any unknown token; a client that refreshes ahead of expiry, as the SDK's does, never meets
 * it.
 */
export const TOKEN_LIMIT = 10_000;

/**
 * Creates an empty token store issuing tokens that live `lifetimeMs`.
 *
 * @example
 * ```ts
 * const tokens = createTokenStore(3_600_000);
 * const { accessToken } = tokens.issue({ clientId: 'reporting', grant: 'client-credentials' });
 * tokens.status(accessToken); // 'valid'
 * ```
 */
export function createTokenStore(lifetimeMs: number): TokenStore {
  const tokens = new Map<string, IssuedToken>();

  return {
    isAccessToken: (credential) => ACCESS_TOKEN_FORM.test(credential),
    issue({ clientId, grant, identity, scope, audience }) {
      const issuedAt = Date.now();
      const token: IssuedToken = {
        accessToken: randomId('at', 32),
        clientId,
        grant,
        ...(identity === undefined ? {} : { identity: { ...identity } }),
        ...(scope === undefined ? {} : { scope }),
        ...(audience === undefined ? {} : { audience }),
        issuedAt,
        expiresAt: issuedAt + lifetimeMs,
        revoked: false,
      };
      tokens.set(token.accessToken, token);
      for (const oldest of tokens.keys()) {
        if (tokens.size <= TOKEN_LIMIT) break;
        tokens.delete(oldest);
      }
      return { ...token };
    },
    status(accessToken) {
      const token = tokens.get(accessToken);
      if (!token) return 'unknown';
      if (token.revoked) return 'revoked';
      return Date.now() < token.expiresAt ? 'valid' : 'expired';
    },
    clientOf: (accessToken) => tokens.get(accessToken)?.clientId,
    expireAll() {
      const now = Date.now();
      for (const token of tokens.values()) token.expiresAt = Math.min(token.expiresAt, now);
    },
    revoke(accessToken) {
      const token = tokens.get(accessToken);
      if (!token) return false;
      token.revoked = true;
      return true;
    },
    list: () =>
      [...tokens.values()].map((token) => ({
        ...token,
        ...(token.identity === undefined ? {} : { identity: { ...token.identity } }),
      })),
    clear: () => tokens.clear(),
  };
}
