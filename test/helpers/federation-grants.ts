/**
 * Workload identity federation on oidc-provider: the two grants a workload trades its platform's
 * identity token with, registered through `provider.registerGrantType`: RFC 7523's jwt-bearer
 * (`assertion`) and RFC 8693's token exchange (`subject_token`). Each verifies the identity token
 * with jose against the one platform issuer it trusts (its key set, its issuer, the audience
 * agreed), and issues an access token as oidc-provider issues client-credentials ones: an RFC 9068
 * JWT whose `aud` is the resource when that resource is asked for.
 */
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import { type ClientMetadata, errors, type KoaContextWithOIDC } from 'oidc-provider';

/** What the authorization server trusts: one platform issuer, for one audience. */
export interface PlatformTrust {
  readonly issuer: string;
  readonly jwksUri: string;
  /** The `aud` identity tokens must carry. */
  readonly audience: string;
}

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** The public client workloads name with `client_id`: no secret, the two grants only. */
export const WORKLOAD_CLIENT_ID = 'workload';

/** The client's registration. */
export const workloadClient: ClientMetadata = {
  client_id: WORKLOAD_CLIENT_ID,
  grant_types: [JWT_BEARER, TOKEN_EXCHANGE],
  redirect_uris: [],
  response_types: [],
  scope: 'projects chat',
  id_token_signed_response_alg: 'ES256',
  token_endpoint_auth_method: 'none',
};

/** The resource server access tokens are issued for, as oidc-provider's resource indicators give it. */
export interface ResourceServerInfo {
  readonly identifier: string;
  readonly scope: string;
}

/** Every identity token the grants saw, with whether it was trusted: what the tests compare. */
export interface FederationRecord {
  readonly grant: string;
  readonly trusted: boolean;
  readonly claims?: JWTPayload;
}

/** Registers both grants on `provider`, trusting `trust`; answers the records of what came. */
export function registerFederationGrants(
  provider: Provider,
  trust: PlatformTrust,
  resourceServer: ResourceServerInfo,
): readonly FederationRecord[] {
  const keys = createRemoteJWKSet(new URL(trust.jwksUri));
  const records: FederationRecord[] = [];

  const verified = async (grant: string, token: unknown): Promise<JWTPayload> => {
    if (typeof token !== 'string') throw new errors.InvalidRequest('the identity token is missing');
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: trust.issuer,
        audience: trust.audience,
        algorithms: ['ES256'],
      });
      records.push({ grant, trusted: true, claims: payload });
      return payload;
    } catch {
      records.push({ grant, trusted: false });
      throw new errors.InvalidGrant('the identity token is not one this server trusts');
    }
  };

  const issue = async (ctx: KoaContextWithOIDC) => {
    const { ClientCredentials } = ctx.oidc.provider;
    const params = ctx.oidc.params as Record<string, string | undefined>;
    // The token endpoint authenticated the client before any grant runs.
    const client = ctx.oidc.client as NonNullable<typeof ctx.oidc.client>;
    const token = new ClientCredentials({ client, scope: params.scope || undefined });
    if (params.resource !== undefined) {
      if (params.resource !== resourceServer.identifier) throw new errors.InvalidTarget();
      // The shape oidc-provider's own resource indicators hand the client-credentials grant.
      (token as { resourceServer?: unknown }).resourceServer = {
        identifier: () => resourceServer.identifier,
        audience: resourceServer.identifier,
        scope: resourceServer.scope,
        scopes: new Set(resourceServer.scope.split(' ')),
        accessTokenTTL: 300,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'ES256' } },
      };
    }
    const value = await token.save();
    ctx.body = {
      access_token: value,
      expires_in: token.expiration,
      token_type: 'Bearer',
      ...(params.grant_type === TOKEN_EXCHANGE ? { issued_token_type: ACCESS_TOKEN_TYPE } : {}),
      ...(token.scope ? { scope: token.scope } : {}),
    };
  };

  provider.registerGrantType(
    JWT_BEARER,
    async (ctx: KoaContextWithOIDC) => {
      const params = ctx.oidc.params as Record<string, unknown>;
      await verified('jwt-bearer', params.assertion);
      await issue(ctx);
    },
    ['assertion', 'scope', 'audience', 'resource'],
    ['resource'],
  );
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx: KoaContextWithOIDC) => {
      const params = ctx.oidc.params as Record<string, unknown>;
      if (params.subject_token_type !== JWT_TYPE) {
        throw new errors.InvalidRequest('subject_token_type must be a JWT');
      }
      if (
        params.requested_token_type !== undefined &&
        params.requested_token_type !== ACCESS_TOKEN_TYPE
      ) {
        throw new errors.InvalidRequest('only access tokens are issued');
      }
      await verified('token-exchange', params.subject_token);
      await issue(ctx);
    },
    [
      'subject_token',
      'subject_token_type',
      'requested_token_type',
      'scope',
      'audience',
      'resource',
    ],
    ['resource'],
  );
  return records;
}
