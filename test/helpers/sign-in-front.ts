/**
 * The sign-in front in this process, as the front's tests start it: a mock service accepting the
 * server's own key, createMcpHttpHandler with upstreamIssuer on 127.0.0.1, and the upstream
 * identity provider that knows the front's origin.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { Browser } from 'playwright';
import { Client, type Logger } from '../../src/index.js';
import { REGISTRATION_BURST, REGISTRATION_REFILL_MS } from '../../src/mcp/front/engine.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../../src/mcp/index.js';
import { nodeListener } from '../../src/mcp/node-listener.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  launchChromium,
  type PersonChoices,
  registerPublicClient,
  signInAsPerson,
  startRedirectTarget,
} from './sign-in-host.js';
import {
  startUpstreamIdentityProvider,
  type UpstreamIdentityProvider,
} from './upstream-identity-provider.js';

/** A running front, and what stands behind and beside it. */
export interface SignInFront {
  readonly service: MockServer;
  readonly upstream: UpstreamIdentityProvider;
  readonly server: Server;
  /** Such as `http://127.0.0.1:41234`; its MCP endpoint is `<origin>/mcp`. */
  readonly origin: string;
  readonly handler: McpHttpHandler;
  /** Closes the handler, its server, the upstream, and the service. */
  close(): Promise<void>;
}

/**
 * Starts a front whose tools reach the service with `serverKey`. `onRequest` sees each request
 * the front receives, before the front answers it; `handlerOptions` are added to the handler's
 * (`fetchOptions`, for one).
 *
 * @example
 * ```ts
 * const front = await startSignInFront('sk_front_key');
 * ```
 */
export async function startSignInFront(
  serverKey: string,
  onRequest?: (req: IncomingMessage) => void,
  handlerOptions: Partial<Parameters<typeof createMcpHttpHandler>[0]> = {},
): Promise<SignInFront> {
  const service = await startMockServer({ apiKeys: [serverKey] });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const upstream = await startUpstreamIdentityProvider(origin);
  const handler = createMcpHttpHandler({
    client: new Client({ apiKey: serverKey, baseUrl: service.baseUrl }),
    resource: `${origin}/mcp`,
    upstreamIssuer: upstream.issuer,
    upstreamClientId: upstream.clientId,
    upstreamClientSecret: upstream.clientSecret,
    ...handlerOptions,
  });
  if (onRequest) server.on('request', onRequest);
  server.on(
    'request',
    nodeListener(handler, (error) => console.error(error)),
  );
  return {
    service,
    upstream,
    server,
    origin,
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      server.close();
      await upstream.close();
      await service.close();
    },
  };
}

/**
 * A logger for the front that adds each line it logs at `warn` or `error` to `lines`, in order,
 * and drops the rest: what an operator is shown, for a test to count.
 *
 * @example
 * ```ts
 * const warnings: string[] = [];
 * const front = await startSignInFront('sk_front_key', undefined, { logger: warningsInto(warnings) });
 * ```
 */
export function warningsInto(lines: string[]): Logger {
  const keep = (message: string) => {
    lines.push(message);
  };
  return { error: keep, warn: keep, info: () => {}, debug: () => {} };
}

/** What a sign-in test drives: a front, the host's redirect URI, and Chromium for the person. */
export interface SignInScene {
  readonly front: SignInFront;
  readonly redirect: { url: string; server: Server };
  readonly browser: Browser;
  /** Closes the browser, the redirect URI's server and the front. */
  close(): Promise<void>;
}

/**
 * Starts a front (as {@link startSignInFront} does, with `handlerOptions`), a redirect URI for
 * the host and Chromium.
 *
 * @example
 * ```ts
 * const { front, redirect, browser } = await startSignInScene('sk_front_key');
 * ```
 */
export async function startSignInScene(
  serverKey: string,
  handlerOptions: Partial<Parameters<typeof createMcpHttpHandler>[0]> = {},
): Promise<SignInScene> {
  const [front, redirect, browser] = await Promise.all([
    startSignInFront(serverKey, undefined, handlerOptions),
    startRedirectTarget(),
    launchChromium(),
  ]);
  return {
    front,
    redirect,
    browser,
    async close() {
      await browser.close();
      redirect.server.close();
      await front.close();
    },
  };
}

/** Replicas of the front behind one round-robin balancer, as a load balancer runs them. */
export interface FrontReplicas {
  readonly service: MockServer;
  readonly upstream: UpstreamIdentityProvider;
  /** The balancer: such as `http://127.0.0.1:41234`, each request to the next replica. */
  readonly origin: string;
  readonly handlers: readonly McpHttpHandler[];
  /** Closes the handlers, the balancer, the upstream and the service. */
  close(): Promise<void>;
}

/**
 * Starts `count` handlers of one front (one signing key, the `store` of `handlerOptions`, memory
 * without) behind a round-robin balancer on 127.0.0.1: each request is served by the next.
 *
 * @example
 * ```ts
 * const front = await startFrontReplicas('sk_front_key', 2, { store: redis.url });
 * ```
 */
export async function startFrontReplicas(
  serverKey: string,
  count: number,
  handlerOptions: Partial<Parameters<typeof createMcpHttpHandler>[0]> = {},
): Promise<FrontReplicas> {
  const service = await startMockServer({ apiKeys: [serverKey] });
  const balancer = createServer();
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
  const upstream = await startUpstreamIdentityProvider(origin);
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKey = JSON.stringify(await exportJWK(privateKey));
  const handlers = Array.from({ length: count }, () =>
    createMcpHttpHandler({
      client: new Client({ apiKey: serverKey, baseUrl: service.baseUrl }),
      resource: `${origin}/mcp`,
      upstreamIssuer: upstream.issuer,
      upstreamClientId: upstream.clientId,
      upstreamClientSecret: upstream.clientSecret,
      signingKey,
      ...handlerOptions,
    }),
  );
  const listeners = handlers.map((handler) =>
    nodeListener(handler, (error) => console.error(error)),
  );
  let next = 0;
  balancer.on('request', (req, res) => {
    void listeners[next++ % count]?.(req, res);
  });
  return {
    service,
    upstream,
    origin,
    handlers,
    async close() {
      await Promise.all(handlers.map((handler) => handler.close()));
      balancer.closeAllConnections();
      balancer.close();
      await upstream.close();
      await service.close();
    },
  };
}

/**
 * `POST <origin><path>` on a raw node:http request, the path sent exactly as written, from
 * `localAddress` (any of 127.0.0.0/8: a caller of its own), with a JSON `body`: the status and
 * body of the answer.
 *
 * @example
 * ```ts
 * const { status } = await postFrom(front.origin, '/register/.', body, { localAddress: '127.0.0.2' });
 * ```
 */
export function postFrom(
  origin: string,
  path: string,
  body: string,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: hostname,
        port,
        path,
        method: 'POST',
        localAddress: options.localAddress ?? '127.0.0.1',
        headers: { 'content-type': 'application/json', ...options.headers },
        agent: false,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * Sends the registration `metadata` from one caller to each of `paths` in turn: the statuses, how
 * many were accepted, and the most the limit may have let through meanwhile. The limit gives one
 * registration more every REGISTRATION_REFILL_MS by the clock, so the bound counts the time the
 * requests took: on a busy machine a run of 7 s may see 22 accepted, and still no more than that.
 *
 * @example
 * ```ts
 * const { accepted, allowed } = await registrationsFrom(origin, paths, metadata);
 * expect(accepted).toBeLessThanOrEqual(allowed);
 * ```
 */
export async function registrationsFrom(
  origin: string,
  paths: readonly string[],
  metadata: string,
  options: { localAddress?: string; headers?: (index: number) => Record<string, string> } = {},
): Promise<{ accepted: number; allowed: number; statuses: number[] }> {
  const started = performance.now();
  const statuses: number[] = [];
  for (const [index, path] of paths.entries()) {
    const { status } = await postFrom(origin, path, metadata, {
      ...(options.localAddress && { localAddress: options.localAddress }),
      ...(options.headers && { headers: options.headers(index) }),
    });
    statuses.push(status);
  }
  const elapsed = performance.now() - started;
  return {
    accepted: statuses.filter((status) => status === 201).length,
    allowed: REGISTRATION_BURST + Math.floor(elapsed / REGISTRATION_REFILL_MS),
    statuses,
  };
}

/** The token endpoint's answer to a host. */
export interface HostTokens {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly scope?: string;
}

/** The scopes a host asks for by default: a tool's, and a refresh token. */
const HOST_SCOPE = 'agentchat:read offline_access';

/**
 * A host's whole sign-in at the front at `origin`: it registers (or, given `clientId`, a Client
 * ID Metadata Document's URL, is identified by it), a person signs in through `browser` (a context
 * of their own), and the code is redeemed with its PKCE verifier. `scope` replaces the request's
 * (`null`: none sent); `clientMetadata` is added to the registration; `method` and `atConsent` are
 * the person's (see {@link PersonChoices}). Resolves with the client ID and the tokens.
 *
 * @example
 * ```ts
 * const { tokens } = await signInThroughFront(browser, front.origin, redirect.url);
 * ```
 */
export async function signInThroughFront(
  browser: Browser,
  origin: string,
  redirectUrl: string,
  options: {
    scope?: string | null;
    clientMetadata?: Record<string, unknown>;
    method?: PersonChoices['method'];
    atConsent?: PersonChoices['atConsent'];
    clientId?: string;
  } = {},
): Promise<{ clientId: string; tokens: HostTokens }> {
  const clientId =
    options.clientId ??
    (await registerPublicClient(origin, redirectUrl, 'Test Host', options.clientMetadata)).clientId;
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${origin}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUrl,
    resource: `${origin}/mcp`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const scope = options.scope === undefined ? HOST_SCOPE : options.scope;
  if (scope !== null) url.searchParams.set('scope', scope);
  const context = await browser.newContext();
  let back: URL;
  try {
    back = await signInAsPerson(await context.newPage(), url, redirectUrl, {
      ...(options.method && { method: options.method }),
      ...(options.atConsent && { atConsent: options.atConsent }),
    });
  } finally {
    await context.close();
  }
  const code = back.searchParams.get('code');
  if (code === null) throw new Error(`No code came back: ${back.href}`);
  const tokens = await tokenRequest(origin, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUrl,
    client_id: clientId,
    code_verifier: verifier,
  });
  return { clientId, tokens };
}

/**
 * `POST <origin>/token` with `form`: the tokens, or an Error naming the status and the answer.
 *
 * @example
 * ```ts
 * const next = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token, client_id });
 * ```
 */
export async function tokenRequest(
  origin: string,
  form: Record<string, string>,
): Promise<HostTokens> {
  const response = await fetch(`${origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`The token endpoint answered ${response.status}: ${text}`);
  return JSON.parse(text) as HostTokens;
}
