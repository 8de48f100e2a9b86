/**
 * The authorization server's metadata, for the token verifier: found by the SDK's own discovery
 * module (RFC 8414, then OpenID Connect Discovery, the document's `issuer` checked), the one the
 * client-credentials provider uses.
 *
 * Why through a `Client`: that module sends through a transport, which agentchat/mcp cannot
 * import without shipping a second copy of ky and the transport in its build (it reaches the
 * client only through the package's public entry). A client's `request` is that very transport,
 * with its limits (no redirect followed, the body capped, each attempt bounded, retries with
 * backoff), so a client made for the issuer's origin reads the documents. It has no key to send:
 * the one it must be given is taken off every request by a middleware before anything goes out,
 * with the service's retry count.
 */
import { Client, type FetchOptions, type Logger, type Middleware } from '../index.js';
import {
  type AuthorizationServerMetadata,
  cachedDiscovery,
  type MetadataReader,
} from '../oauth/discovery.js';
import { DOCUMENT_TIMEOUT_MS, MAX_DOCUMENT_BYTES } from './bounded-fetch.js';

/**
 * Public documents carry no credential: the placeholder key never leaves the process. Nor does
 * `X-AgentChat-Retry-Count`, which is meant for the service, not for a company's issuer.
 */
const withoutAuthorization: Middleware = (request, next) => {
  const headers = new Headers(request.headers);
  headers.delete('authorization');
  headers.delete('x-agentchat-retry-count');
  return next(new Request(request, { headers }));
};

/**
 * One issuer's metadata, read on first use and kept; a failure is not kept, so the next request
 * tries again (an issuer down at start-up does not need a restart).
 *
 * @example
 * ```ts
 * const metadata = issuerMetadata('https://auth.example.com', undefined, undefined);
 * const { jwks_uri } = await metadata.get();
 * ```
 */
export function issuerMetadata(
  issuer: string,
  logger: Logger | undefined,
  fetchOptions: FetchOptions | undefined,
): { get(): Promise<AuthorizationServerMetadata> } {
  const { origin } = new URL(issuer);
  const client = new Client({
    apiKey: 'none',
    baseUrl: origin,
    maxRetries: 1,
    timeout: DOCUMENT_TIMEOUT_MS,
    maxResponseBytes: MAX_DOCUMENT_BYTES,
    middleware: [withoutAuthorization],
    ...(logger && { logger }),
    ...(fetchOptions && { fetchOptions }),
  });
  const reader: MetadataReader = {
    request: (endpoint, input) => {
      const url = new URL(endpoint.path(input as never));
      // Discovery only asks for well-known URIs of the issuer's own origin.
      return client.request(
        { method: 'GET', path: url.pathname },
        { schema: endpoint.output },
      ) as never;
    },
  };
  return cachedDiscovery(issuer, reader);
}
