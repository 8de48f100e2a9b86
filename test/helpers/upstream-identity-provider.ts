/**
 * A company's identity provider as the sign-in front meets it, configured as Entra ID behaves:
 * oidc-provider on `localhost` (another host name than the front's 127.0.0.1, so the browser
 * keeps their cookies apart), no registration, one confidential client (the front's app
 * registration, its redirect URI `<front>/oauth/callback`), the RFC 8707 `resource` parameter
 * refused (Entra's v2 endpoint answers AADSTS9010010), and its own login and consent pages.
 *
 * For the hostile round it can lie: `lie` tampers with the ID token of the next token answers
 * (a bad signature, another nonce, another audience, each re-signed with its real key but for
 * the signature), `delayMs` holds its token endpoint's answers back, and `refuseWith` answers
 * authorization requests with an OAuth error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

/** How the provider lies in its ID tokens. */
export type UpstreamLie = 'signature' | 'nonce' | 'audience' | undefined;

/** A running identity provider. */
export interface UpstreamIdentityProvider {
  /** Such as `http://localhost:41234`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Every authorization request's query, in order. */
  readonly authorizationRequests: readonly URLSearchParams[];
  /** When each token request arrived (milliseconds since the epoch), in order. */
  readonly tokenRequests: readonly number[];
  /** How the next ID tokens lie; `undefined` tells the truth. */
  lie: UpstreamLie;
  /** Milliseconds each token endpoint answer is held back. */
  delayMs: number;
  /**
   * An OAuth error the next authorization requests are answered with at once (redirected back
   * with their `state` and `iss`, as RFC 6749 and RFC 9207 say); `undefined` serves them.
   */
  refuseWith: string | undefined;
  close(): Promise<void>;
}

/**
 * Starts the provider for a front at `frontOrigin` (such as `http://127.0.0.1:8787`).
 *
 * @example
 * ```ts
 * const upstream = await startUpstreamIdentityProvider('http://127.0.0.1:8787');
 * ```
 */
export async function startUpstreamIdentityProvider(
  frontOrigin: string,
): Promise<UpstreamIdentityProvider> {
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/token')) tokenRequests.push(Date.now());
    const delay = req.url?.startsWith('/token') ? state.delayMs : 0;
    if (delay > 0) setTimeout(() => handle?.(req, res), delay).unref();
    else handle?.(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const signing = await generateKeyPair('RS256', { extractable: true });
  const privateJwk: JWK = {
    ...(await exportJWK(signing.privateKey)),
    kid: 'upstream-1',
    alg: 'RS256',
  };
  const client = { clientId: 'agentchat-front', clientSecret: 'front-app-secret-4d1e' };
  const authorizationRequests: URLSearchParams[] = [];
  const tokenRequests: number[] = [];

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [`${frontOrigin}/oauth/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [privateJwk as never] },
    pkce: { required: () => true },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: false },
      resourceIndicators: { enabled: false },
    },
  });
  provider.use(async (ctx, next) => {
    const query = new URLSearchParams(ctx.querystring);
    if (ctx.path === '/auth') authorizationRequests.push(query);
    if (query.has('resource')) {
      // As Entra ID's v2 endpoint: the parameter is refused, not ignored.
      ctx.status = 400;
      ctx.body = {
        error: 'invalid_target',
        error_description: 'AADSTS9010010: The resource parameter is not supported.',
      };
      return;
    }
    if (ctx.path === '/auth' && state.refuseWith !== undefined) {
      const back = new URL(query.get('redirect_uri') ?? '');
      back.search = new URLSearchParams({
        error: state.refuseWith,
        error_description: `Refused by the test: ${state.refuseWith}`,
        state: query.get('state') ?? '',
        iss: issuer,
      }).toString();
      ctx.redirect(back.href);
      return;
    }
    await next();
    if (ctx.path === '/token') {
      const body = ctx.body as { id_token?: string } | undefined;
      if (body?.id_token && state.lie)
        body.id_token = await tamper(body.id_token, state.lie, privateJwk);
    }
  });
  handle = provider.callback();

  const state: UpstreamIdentityProvider = {
    issuer,
    ...client,
    authorizationRequests,
    tokenRequests,
    lie: undefined,
    delayMs: 0,
    refuseWith: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/** The ID token, lying as asked: re-signed with the real key, or with its signature broken. */
async function tamper(
  idToken: string,
  lie: Exclude<UpstreamLie, undefined>,
  jwk: JWK,
): Promise<string> {
  if (lie === 'signature') {
    const [header, payload, signature = ''] = idToken.split('.');
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    return `${header}.${payload}.${flipped}`;
  }
  const claims = decodeJwt(idToken);
  if (lie === 'nonce') claims.nonce = 'a-nonce-of-another-sign-in';
  if (lie === 'audience') claims.aud = 'another-application';
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid as string })
    .sign(await importJWK(jwk, 'RS256'));
}
