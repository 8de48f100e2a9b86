/**
 * Authorization server discovery: from an issuer identifier to its metadata document, RFC 8414
 * first (`/.well-known/oauth-authorization-server`, the issuer's path after it, section 3.1), then
 * OpenID Connect Discovery (`/.well-known/openid-configuration` after the issuer's path). The
 * document's `issuer` must be the one asked for (RFC 8414 section 3.3): a document naming another
 * is the mix-up attack, where one server's metadata sends a client's credentials to another.
 *
 * The client-credentials provider uses it for its token endpoint, through its transport;
 * agentchat/mcp's token verifier uses it for `jwks_uri` and `introspection_endpoint`, through a
 * client's `request` (see src/mcp/issuer-documents.ts), so that it needs no transport of its own.
 */
import * as z from 'zod/mini';
import type { Endpoint } from '../core/call.js';
import { APIError, OAuthError } from '../core/errors/index.js';
import { isRetryableStatus } from '../core/retry-policy.js';
import type { Transport } from '../core/transport.js';

/**
 * What discovery sends its requests through: a transport, or anything that reads an endpoint the
 * same way (rejecting with an {@link APIError} for a status other than 2xx).
 */
export type MetadataReader = Pick<Transport, 'request'>;

/**
 * The part of an authorization server's metadata (RFC 8414 section 2) the SDK reads; the
 * document's other fields are kept as they came.
 */
export interface AuthorizationServerMetadata {
  /** The issuer identifier, equal to the one discovery was asked for. */
  readonly issuer: string;
  /** Where tokens are requested, when the server has a token endpoint. */
  readonly token_endpoint?: string | undefined;
  /** The server's public keys (JWK Set), for verifying the tokens it signs. */
  readonly jwks_uri?: string | undefined;
  /** RFC 7662 token introspection, when the server offers it. */
  readonly introspection_endpoint?: string | undefined;
  readonly [field: string]: unknown;
}

/**
 * A metadata document is a few KiB (Keycloak's, among the longest, about 7 KiB); 256 KiB,
 * written out, is far past any real one and stops a server that streams without end. The
 * client-credentials provider reads it through its token transport, whose 64 KiB cap is lower
 * and is the one that holds there; agentchat/mcp's verifier reads up to this.
 */
const MAX_METADATA_BYTES = 262_144;

/** Made on use, so that a bundle without discovery drops it. */
function metadataSchema() {
  const url = z.optional(z.string().check(z.minLength(1)));
  return z.looseObject({
    issuer: z.string(),
    token_endpoint: url,
    jwks_uri: url,
    introspection_endpoint: url,
  });
}

/**
 * Where an issuer's metadata may be, in the order asked: RFC 8414's well-known URI with the
 * issuer's path inserted after it (section 3.1), then OpenID Connect Discovery's, appended to the
 * issuer (which is where Entra ID, Okta, Auth0 and Keycloak serve theirs).
 *
 * @example
 * ```ts
 * metadataUrls('https://auth.example.com/tenant-1');
 * // ['https://auth.example.com/.well-known/oauth-authorization-server/tenant-1',
 * //  'https://auth.example.com/tenant-1/.well-known/openid-configuration']
 * ```
 */
export function metadataUrls(issuer: string): readonly string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Reads an issuer's metadata: each well-known URI of {@link metadataUrls} in turn, the next one
 * only when a server answers that it has no document there (a 4xx the retry policy leaves alone).
 * Sent through `transport`, whose base URL must be empty: its limits (no redirect followed, the
 * body capped, each attempt bounded, retries with backoff) hold here as for a token request.
 *
 * @throws {@link OAuthError} when the document names another issuer (the mix-up defence), or when
 * no URI has one; the transport's own errors when the server is down.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  transport: MetadataReader,
): Promise<AuthorizationServerMetadata> {
  const urls = metadataUrls(issuer);
  const misses: string[] = [];
  for (const url of urls) {
    let metadata: AuthorizationServerMetadata;
    try {
      metadata = await transport.request(metadataEndpoint(url), undefined);
    } catch (error) {
      if (!(error instanceof APIError && isAbsent(error.status))) throw error;
      misses.push(`${url} (status ${error.status})`);
      continue;
    }
    if (metadata.issuer !== issuer) {
      throw new OAuthError({
        status: 200,
        problem:
          `the authorization server metadata at ${url} names the issuer ${JSON.stringify(metadata.issuer)}, ` +
          `not the configured issuer ${JSON.stringify(issuer)}; a document for another issuer is ` +
          'refused (RFC 8414 section 3.3), so that credentials never go to a server they were not meant for',
      });
    }
    return metadata;
  }
  throw new OAuthError({
    status: 404,
    problem: `no authorization server metadata for the issuer ${JSON.stringify(issuer)}: ${misses.join(', ')}; check the issuer (a client may give tokenUrl instead)`,
  });
}

/**
 * One issuer's metadata, read on first use and kept: `get` reads it once however many ask at
 * the same time; a failure is not kept, so the next `get` reads it again, and `forget` drops a
 * document that led somewhere that failed.
 *
 * @example
 * ```ts
 * const discovery = cachedDiscovery('https://auth.example.com', transport);
 * const { token_endpoint } = await discovery.get();
 * ```
 */
export function cachedDiscovery(
  issuer: string,
  transport: MetadataReader,
): { get(): Promise<AuthorizationServerMetadata>; forget(): void } {
  let metadata: Promise<AuthorizationServerMetadata> | undefined;
  return {
    get() {
      if (metadata) return metadata;
      const reading = discoverAuthorizationServer(issuer, transport);
      metadata = reading;
      reading.catch(() => {
        if (metadata === reading) metadata = undefined;
      });
      return reading;
    },
    forget() {
      metadata = undefined;
    },
  };
}

/** A status that says "no document here": a 4xx the retry policy does not retry. */
function isAbsent(status: number): boolean {
  return status >= 400 && status < 500 && !isRetryableStatus(status);
}

function metadataEndpoint(url: string): Endpoint<undefined, AuthorizationServerMetadata> {
  return {
    name: 'oauth.discovery',
    method: 'GET',
    input: z.undefined(),
    path: () => url,
    output: metadataSchema(),
    maxResponseBytes: MAX_METADATA_BYTES,
  };
}
