/**
 * A real OAuth 2.0 authorization server for tests: oidc-provider (OpenID-certified) on a free
 * 127.0.0.1 port, with the client credentials grant, RFC 8707 resource indicators issuing RFC 9068
 * JWT access tokens (`aud` = the resource), and one client per authentication method: a secret by
 * HTTP Basic or in the form, and `private_key_jwt` with a registered JWKS. It serves both
 * `/.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`.
 *
 * oidc-provider accepts `client_secret_basic` and `client_secret_post` alike whatever a client
 * registered, so `requests` records how each token request authenticated, for the tests that mean
 * to prove which one was sent.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair, type JWK } from 'jose';
import Provider, { type ClientMetadata, errors, type KoaContextWithOIDC } from 'oidc-provider';
import {
  type FederationRecord,
  type PlatformTrust,
  registerFederationGrants,
  workloadClient,
} from './federation-grants.js';

/** One token request, as it reached the server. */
export interface TokenRequestRecord {
  /** The `Authorization` header's scheme, such as `Basic`, or `undefined` when there was none. */
  readonly authorizationScheme: string | undefined;
  /** The form fields the server read (oidc-provider's parsed parameters). */
  readonly params: Readonly<Record<string, unknown>>;
  /** `true` when the server issued a token. */
  readonly granted: boolean;
}

/** A client's private key in the two shapes `privateKey` takes as data. */
export interface ClientKey {
  readonly pem: string;
  readonly jwk: JWK;
}

/** A running authorization server. */
export interface AuthorizationServer {
  /** The issuer identifier, such as `http://127.0.0.1:41234`. */
  readonly issuer: string;
  /** The token endpoint's URL. */
  readonly tokenUrl: string;
  /** The resource its JWT access tokens are issued for. */
  readonly resource: string;
  /** A client with a secret holding every character form encoding changes: `: + / = %`. */
  readonly secretClient: { readonly clientId: string; readonly clientSecret: string };
  /** A `private_key_jwt` client and its registered key. */
  readonly keyClient: {
    readonly clientId: string;
    readonly key: ClientKey;
    readonly keyId: string;
  };
  /** Every token request so far, in order. */
  readonly requests: readonly TokenRequestRecord[];
  /** With `trust`: every identity token the federation grants saw, and whether it was trusted. */
  readonly federation: readonly FederationRecord[];
  /** Every request path so far, discovery included. */
  readonly paths: readonly string[];
  /** The headers of each request in {@link paths}, in the same order. */
  readonly headers: readonly IncomingHttpHeaders[];
  /** The `kid` of the key it signs access tokens with. */
  readonly signingKeyId: string;
  /** The key pair it signs access tokens with (ES256), for tests that sign what it would not issue. */
  readonly signingKeys: CryptoKeyPair;
  /**
   * Lets clients ask for tokens for an MCP server at `url` (such as `http://127.0.0.1:8787/mcp`):
   * RFC 9068 JWTs, `aud` = `url`, with the `agentchat:*` scopes asked for.
   */
  addMcpResource(url: string): void;
  /**
   * Clients of MCP servers, by the scopes they may get: `reader` (`agentchat:read`), `writer`
   * (both), `opaque` (both, as opaque tokens to be introspected), and `introspector`, the MCP
   * server's own credentials for introspection.
   */
  readonly mcpClients: Readonly<
    Record<'reader' | 'writer' | 'opaque' | 'introspector', SecretClient>
  >;
  /** A client-credentials token of `client` for `resource`, asking for `scope` (all it may get). */
  issueToken(client: SecretClient, resource: string, scope?: string): Promise<string>;
  close(): Promise<void>;
}

/** A client authenticating with a secret. */
export interface SecretClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The scopes of agentchat-mcp's tools. */
export const mcpScopes = 'agentchat:read agentchat:write';

/** The scope the clients may ask for. */
export const serverScope = 'projects chat';

/** Makes a fresh RSA key pair for a client, private key as PKCS#8 PEM and JWK. */
export async function makeClientKey(): Promise<ClientKey & { readonly publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    pem: await exportPKCS8(privateKey),
    jwk: await exportJWK(privateKey),
    publicJwk: await exportJWK(publicKey),
  };
}

/**
 * Starts oidc-provider on 127.0.0.1 and resolves once it listens. With `trust`, it also takes the
 * workload identity federation grants (jwt-bearer, token exchange) from the public client
 * `workload`, for identity tokens of that platform issuer.
 */
export async function startAuthorizationServer(
  options: { readonly trust?: PlatformTrust } = {},
): Promise<AuthorizationServer> {
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const paths: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? '');
    headers.push(req.headers);
    handle?.(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resource = 'https://api.agentchat.test/';

  const signing = await generateKeyPair('ES256', { extractable: true });
  const clientKey = await makeClientKey();
  const keyId = 'client-key-1';
  const secretClient = { clientId: 'secret-client', clientSecret: 'se:cr+et/va=lue%20' };
  const keyClient = { clientId: 'key-client', key: clientKey, keyId };

  const mcpResources = new Set<string>();
  const mcpClients = {
    reader: { clientId: 'mcp-reader', clientSecret: 'reader-secret' },
    writer: { clientId: 'mcp-writer', clientSecret: 'writer-secret' },
    opaque: { clientId: 'mcp-opaque', clientSecret: 'opaque-secret' },
    introspector: { clientId: 'mcp-introspector', clientSecret: 'introspector-secret' },
  };
  const mcpClient = (client: SecretClient, scope: string): ClientMetadata => ({
    client_id: client.clientId,
    client_secret: client.clientSecret,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    scope,
    id_token_signed_response_alg: 'ES256',
    token_endpoint_auth_method: 'client_secret_basic',
  });

  const provider = new Provider(issuer, {
    clients: [
      mcpClient(mcpClients.reader, 'agentchat:read'),
      mcpClient(mcpClients.writer, mcpScopes),
      mcpClient(mcpClients.opaque, mcpScopes),
      mcpClient(mcpClients.introspector, mcpScopes),
      {
        client_id: secretClient.clientId,
        client_secret: secretClient.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: serverScope,
        // The server signs with ES256 only; oidc-provider checks each client against that.
        id_token_signed_response_alg: 'ES256',
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: keyClient.clientId,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: serverScope,
        id_token_signed_response_alg: 'ES256',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ ...clientKey.publicJwk, kid: keyId, alg: 'RS256', use: 'sig' }] },
      },
      ...(options.trust ? [workloadClient] : []),
    ],
    jwks: { keys: [{ ...(await exportJWK(signing.privateKey)), kid: 'server-1', alg: 'ES256' }] },
    scopes: [...serverScope.split(' '), ...mcpScopes.split(' ')],
    // Set, so that oidc-provider does not print a notice about its default at every token.
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Without a resource the token is opaque; with this one, a JWT whose aud is it.
        defaultResource: () => undefined,
        getResourceServerInfo: (_ctx: unknown, indicator: string, client: { clientId: string }) => {
          if (mcpResources.has(indicator)) {
            return {
              scope: mcpScopes,
              audience: indicator,
              accessTokenFormat: client.clientId === mcpClients.opaque.clientId ? 'opaque' : 'jwt',
              accessTokenTTL: 300,
              jwt: { sign: { alg: 'ES256' } },
            };
          }
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: serverScope,
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 300,
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  const requests: TokenRequestRecord[] = [];
  const record = (granted: boolean) => (ctx: KoaContextWithOIDC) => {
    requests.push({
      authorizationScheme: ctx.headers.authorization?.split(' ')[0],
      params: { ...(ctx.oidc?.params ?? {}) },
      granted,
    });
  };
  const federation = options.trust
    ? registerFederationGrants(provider, options.trust, {
        identifier: resource,
        scope: serverScope,
      })
    : [];
  provider.on('grant.success', record(true));
  provider.on('grant.error', record(false));
  handle = provider.callback();

  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    resource,
    secretClient,
    keyClient,
    requests,
    federation,
    paths,
    headers,
    signingKeyId: 'server-1',
    signingKeys: signing,
    addMcpResource: (url) => {
      mcpResources.add(url);
    },
    mcpClients,
    issueToken: async (client, forResource, scope = mcpScopes) => {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          resource: forResource,
          scope,
        }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (body.access_token === undefined) {
        throw new Error(`no token for ${client.clientId}: ${JSON.stringify(body)}`);
      }
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
