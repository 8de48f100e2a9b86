/**
 * A platform that gives workloads signed identity tokens, on 127.0.0.1: an OpenID issuer of its
 * own (its key set at `/jwks`, its discovery document), and the two HTTP endpoints workloads ask:
 * GitHub Actions' token request URL (behind its bearer, `{ value }` per audience) and Google's
 * metadata server (`Metadata-Flavor: Google`, the JWT as text). It stands for GitHub's, Google's or
 * a Kubernetes cluster's issuer, which the authorization server is configured to trust.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { type AuthorizationServer, startAuthorizationServer } from './authorization-server.js';
import { startVerifyingService, type VerifyingService } from './verifying-service.js';

/** The path GitHub's runner serves its token request at (the real one has a run's id in it). */
export const GITHUB_TOKEN_PATH =
  '/_apis/distributedtask/hubs/build/plans/plan-1/jobs/job-1/idtoken';

/** Google's metadata server's identity path. */
export const METADATA_IDENTITY_PATH =
  '/computeMetadata/v1/instance/service-accounts/default/identity';

/** One request a workload made of the platform. */
export interface PlatformRequest {
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: IncomingMessage['headers'];
}

/** A running platform. */
export interface WorkloadPlatform {
  /** The platform's issuer identifier, such as `http://127.0.0.1:41234`. */
  readonly issuer: string;
  /** Its key set's URL. */
  readonly jwksUri: string;
  /** Its origin's host and port, as `GCE_METADATA_HOST` takes it. */
  readonly host: string;
  /** The GitHub Actions variables a job with `id-token: write` gets. */
  readonly githubEnv: {
    readonly ACTIONS_ID_TOKEN_REQUEST_URL: string;
    readonly ACTIONS_ID_TOKEN_REQUEST_TOKEN: string;
  };
  /** Every request to the GitHub and metadata endpoints so far, in order. */
  readonly requests: readonly PlatformRequest[];
  /** Signs an identity token with the platform's key: `sub` and `aud` as given, 10 minutes. */
  sign(claims: { sub: string; aud: string } & JWTPayload): Promise<string>;
  /** Makes the GitHub and metadata endpoints answer `status` from now on (`undefined`: serve). */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

/** The subject the platform names its workload by, GitHub's way. */
export const WORKLOAD_SUBJECT = 'repo:agentchat/agentchat-js:ref:refs/heads/main';

/** Starts the platform on 127.0.0.1 and resolves once it listens. */
export async function startWorkloadPlatform(): Promise<WorkloadPlatform> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'platform-1', alg: 'ES256', use: 'sig' };
  const requestToken = `ghs_${crypto.randomUUID().replaceAll('-', '')}`;
  const requests: PlatformRequest[] = [];
  let failure: number | undefined;
  let issuer = '';

  const sign = (claims: { sub: string; aud: string } & JWTPayload) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'platform-1', typ: 'JWT' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime('10m')
      .sign(privateKey);

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, { issuer, jwks_uri: `${issuer}/jwks` });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    });
    if (failure !== undefined) return json(failure, { message: 'refused' });
    const audience = url.searchParams.get('audience');
    if (url.pathname === GITHUB_TOKEN_PATH) {
      if (req.headers.authorization !== `Bearer ${requestToken}`) {
        return json(401, { message: 'bad request token' });
      }
      return json(200, {
        value: await sign({
          sub: WORKLOAD_SUBJECT,
          aud: audience ?? 'https://github.com/agentchat',
        }),
      });
    }
    if (url.pathname === METADATA_IDENTITY_PATH) {
      if (req.headers['metadata-flavor'] !== 'Google' || audience === null) {
        res.writeHead(400, { 'metadata-flavor': 'Google' });
        return res.end('missing Metadata-Flavor or audience');
      }
      res.writeHead(200, { 'content-type': 'text/html', 'metadata-flavor': 'Google' });
      return res.end(await sign({ sub: '1234567890', aud: audience }));
    }
    json(404, { message: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    host: `127.0.0.1:${port}`,
    githubEnv: {
      ACTIONS_ID_TOKEN_REQUEST_URL: `${issuer}${GITHUB_TOKEN_PATH}?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
    },
    requests,
    sign,
    failWith: (status) => {
      failure = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The audience the authorization server expects the platform's identity tokens to carry. */
export const WORKLOAD_AUDIENCE = 'https://auth.agentchat.test';

/** A platform, an authorization server trusting its identity tokens, and a service trusting the server. */
export interface WorkloadStack {
  readonly platform: WorkloadPlatform;
  readonly server: AuthorizationServer;
  readonly service: VerifyingService;
  close(): Promise<void>;
}

/**
 * Starts the three parts the workload identity tests sign in through.
 *
 * @example
 * ```ts
 * const { platform, server, service } = await startWorkloadStack();
 * ```
 */
export async function startWorkloadStack(): Promise<WorkloadStack> {
  const platform = await startWorkloadPlatform();
  const server = await startAuthorizationServer({
    trust: { issuer: platform.issuer, jwksUri: platform.jwksUri, audience: WORKLOAD_AUDIENCE },
  });
  const service = await startVerifyingService(server.issuer, server.resource);
  return {
    platform,
    server,
    service,
    async close() {
      await Promise.all([platform.close(), server.close(), service.close()]);
    },
  };
}
