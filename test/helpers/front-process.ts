/**
 * The sign-in front as `agentchat-mcp --http --upstream-issuer` runs it, a child process from
 * source: a mock service accepting the server's own key, a free port of 127.0.0.1, and the
 * upstream identity provider that knows the front's origin before it starts.
 */
import { fileURLToPath } from 'node:url';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { freePort } from './free-port.js';
import { type McpHttpProcess, startMcpHttp } from './mcp-http.js';
import { tsxLoader } from './run-process.js';
import {
  startUpstreamIdentityProvider,
  type UpstreamIdentityProvider,
} from './upstream-identity-provider.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** What a test varies in the front it starts. */
export interface FrontProcessOptions {
  /** The key the front's tools reach the service with, as `AGENTCHAT_API_KEY`. */
  readonly serverKey: string;
  /**
   * A service the caller started, accepting `serverKey`, and closes itself; by default the front
   * gets a service of its own, closed with it.
   */
  readonly service?: MockServer;
  /** Node's arguments after tsx's loader, such as `--import <hook>` or `--expose-gc`. */
  readonly nodeArguments?: readonly string[];
  /** The bin's arguments after the front's own, such as `--trusted-proxy 127.0.0.10`. */
  readonly binArguments?: readonly string[];
  /** Added to the child's environment, over the front's own: `NODE_EXTRA_CA_CERTS`, a proxy's. */
  readonly env?: NodeJS.ProcessEnv;
}

/** A running front, and what stands behind it. */
export interface FrontProcess {
  readonly service: MockServer;
  readonly upstream: UpstreamIdentityProvider;
  /** The running bin: its endpoint (`<origin>/mcp`), its child process, its standard error. */
  readonly bin: McpHttpProcess;
  /** Such as `http://127.0.0.1:41234`. */
  readonly origin: string;
  /** Stops the bin, then closes the upstream and the service, unless the caller's. */
  close(): Promise<void>;
}

/**
 * Starts `agentchat-mcp --http --upstream-issuer` on a free port of 127.0.0.1, its tools reaching
 * the service with `serverKey`; resolves once it prints its endpoint. Whatever it started is
 * closed again when the bin fails to start.
 *
 * @example
 * ```ts
 * const front = await startFrontProcess({ serverKey: 'sk_front_key' });
 * ```
 */
export async function startFrontProcess(options: FrontProcessOptions): Promise<FrontProcess> {
  const ownService = options.service === undefined;
  const service = options.service ?? (await startMockServer({ apiKeys: [options.serverKey] }));
  let upstream: UpstreamIdentityProvider | undefined;
  try {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    upstream = await startUpstreamIdentityProvider(origin);
    const bin = await startMcpHttp(
      process.execPath,
      [
        ...tsxLoader,
        ...(options.nodeArguments ?? []),
        'src/mcp/bin.ts',
        ...['--http', '--port', String(port)],
        ...['--upstream-issuer', upstream.issuer, '--upstream-client-id', upstream.clientId],
        ...(options.binArguments ?? []),
      ],
      {
        cwd: repo,
        env: {
          PATH: process.env.PATH,
          AGENTCHAT_BASE_URL: service.baseUrl,
          AGENTCHAT_API_KEY: options.serverKey,
          AGENTCHAT_UPSTREAM_CLIENT_SECRET: upstream.clientSecret,
          ...options.env,
        },
      },
    );
    const started = upstream;
    return {
      service,
      upstream: started,
      bin,
      origin,
      async close() {
        await bin.stop();
        await started.close();
        if (ownService) await service.close();
      },
    };
  } catch (error) {
    await upstream?.close();
    if (ownService) await service.close();
    throw error;
  }
}
