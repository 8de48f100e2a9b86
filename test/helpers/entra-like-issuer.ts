/**
 * A local issuer whose access tokens have the shape of Entra ID's v2.0 ones (its public
 * documentation): `typ: JWT` (not `at+jwt`), `iss` `<origin>/<tenant>/v2.0`, `aud` the API's
 * application id, delegated scopes in `scp` without the `api://<application id>/` prefix hosts
 * request them with, and application permissions in `roles` for a service caller. Its OpenID
 * metadata sits where Entra ID serves it (after the issuer's path, no RFC 8414 document), and its
 * key set at `/<tenant>/discovery/v2.0/keys`, signed by a key of its own. Entra ID itself cannot be
 * reached from a test; nothing else here stands in for a real server's behaviour.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** How the issuer is served. */
export interface EntraLikeIssuerOptions {
  /**
   * Serve https with this certificate (for `localhost`) rather than http on 127.0.0.1.
   *
   * @default none: http
   */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** Fields of its metadata document to give other values, such as a `jwks_uri` elsewhere. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** A running issuer. */
export interface EntraLikeIssuer {
  /**
   * `http://127.0.0.1:<port>/<tenant>/v2.0` (with `tls`, `https://localhost:<port>/...`), as Entra
   * ID's v2.0 issuers end.
   */
  readonly issuer: string;
  /** The API's application (client) id, each token's `aud`. */
  readonly applicationId: string;
  /** The prefix hosts request the API's scopes with: `api://<application id>/`. */
  readonly scopePrefix: string;
  /** Every request path so far. */
  readonly paths: readonly string[];
  /** The public keys its tokens are signed with, as its key set serves them. */
  readonly keySet: { readonly keys: readonly object[] };
  /**
   * An access token for the API: a person's (`scp`, space-separated short names) or a service's
   * (`roles`), valid for an hour unless `claims` say otherwise.
   */
  token(claims: { scp?: string; roles?: string[] } & Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function startEntraLikeIssuer(
  options: EntraLikeIssuerOptions = {},
): Promise<EntraLikeIssuer> {
  const tenant = randomUUID();
  const applicationId = randomUUID();
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = randomUUID();
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' }] };
  const paths: string[] = [];
  let origin = '';
  const listener: RequestListener = (request, response) => {
    const path = request.url ?? '/';
    paths.push(path);
    const issuer = `${origin}/${tenant}/v2.0`;
    const documents: Record<string, unknown> = {
      [`/${tenant}/v2.0/.well-known/openid-configuration`]: {
        issuer,
        authorization_endpoint: `${origin}/${tenant}/oauth2/v2.0/authorize`,
        token_endpoint: `${origin}/${tenant}/oauth2/v2.0/token`,
        jwks_uri: `${origin}/${tenant}/discovery/v2.0/keys`,
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        ...options.metadata,
      },
      [`/${tenant}/discovery/v2.0/keys`]: jwks,
    };
    const document = documents[path];
    response.writeHead(document === undefined ? 404 : 200, {
      'content-type': 'application/json',
    });
    response.end(JSON.stringify(document ?? { error: 'not found' }));
  };
  const server = options.tls
    ? createHttpsServer(options.tls, listener)
    : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = options.tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  const issuer = `${origin}/${tenant}/v2.0`;
  return {
    issuer,
    applicationId,
    scopePrefix: `api://${applicationId}/`,
    paths,
    keySet: jwks,
    token: (claims) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        aud: applicationId,
        iss: issuer,
        iat: now,
        nbf: now,
        exp: now + 3600,
        azp: 'host-application-id',
        azpacr: '0',
        oid: 'oid-of-the-caller',
        sub: 'pairwise-subject',
        tid: tenant,
        ver: '2.0',
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
        .sign(privateKey);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
