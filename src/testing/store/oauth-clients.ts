import { ConfigurationError } from '../../core/errors/configuration-error.js';
/**
 * An OAuth 2.0 client the mock's token endpoint accepts, in {@link MockServiceOptions.oauthClients}.
 *
 * @example
 * ```ts
 * const mock = createMockService({
 *   oauthClients: [{ clientId: 'reporting', clientSecret: 's3cret', scopes: ['projects:read'] }],
 * });
 * ```
 */
export interface OAuthClient {
  /** The client identifier. */
  clientId: string;
  /** The client secret. */
  clientSecret: string;
  /**
   * Scope tokens the client may ask for; asking for another is `invalid_scope`.
   *
   * @default any scope
   */
  scopes?: readonly string[];
}

/**
 * A scope token as RFC 6749 section 3.3 defines it: printable ASCII but space, `"` and `\`.
 *
 * @example
 * ```ts
 * SCOPE_TOKEN.test('projects:read'); // true
 * ```
 */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The clients the token endpoint authenticates. */
export interface ClientRegistry {
  /** The client with this id and secret, or `undefined` when there is none. */
  authenticate(clientId: string, clientSecret: string): OAuthClient | undefined;
}

/**
 * Creates the registry of accepted clients. Without a list, any client id with a non-empty secret
 * is accepted (as any non-empty API key is); an empty list accepts none.
 *
 * @throws ConfigurationError when a client has an empty id or secret, or a scope that is not a scope token.
 * @example
 * ```ts
 * const clients = createClientRegistry([{ clientId: 'reporting', clientSecret: 's3cret' }]);
 * clients.authenticate('reporting', 's3cret'); // { clientId: 'reporting', clientSecret: 's3cret' }
 * ```
 */
export function createClientRegistry(clients?: readonly OAuthClient[]): ClientRegistry {
  if (!clients) {
    return {
      authenticate: (clientId, clientSecret) =>
        clientId !== '' && clientSecret !== '' ? { clientId, clientSecret } : undefined,
    };
  }
  const byId = new Map(clients.map((client) => [assertClient(client).clientId, client]));
  return {
    authenticate(clientId, clientSecret) {
      const client = byId.get(clientId);
      return client && client.clientSecret === clientSecret ? client : undefined;
    },
  };
}

function assertClient(client: OAuthClient): OAuthClient {
  const { clientId, clientSecret, scopes } = client ?? {};
  if (typeof clientId !== 'string' || clientId === '') {
    throw new ConfigurationError(
      `oauthClients: clientId must be a non-empty string, got ${String(clientId)}`,
    );
  }
  if (typeof clientSecret !== 'string' || clientSecret === '') {
    throw new ConfigurationError(
      `oauthClients: the clientSecret of "${clientId}" must be a non-empty string`,
    );
  }
  if (scopes !== undefined && !Array.isArray(scopes)) {
    throw new ConfigurationError(
      `oauthClients: the scopes of "${clientId}" must be an array of strings`,
    );
  }
  for (const scope of scopes ?? []) {
    if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope)) {
      throw new ConfigurationError(
        `oauthClients: the scopes of "${clientId}" must be scope tokens (RFC 6749 section 3.3), got ${JSON.stringify(scope)}`,
      );
    }
  }
  return client;
}
