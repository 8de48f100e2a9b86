import { parseArgs } from 'node:util';
import { ConfigurationError } from '../index.js';
import { describeParseArgsError, isParseArgsError } from '../internal/command-line.js';
import type { McpToolScope, ToolName } from './scope.js';
import { checkedScopeNames, type McpScopeNames } from './scope-names.js';

/** The text `agentchat-mcp --help` prints. */
export const USAGE = `Usage: agentchat-mcp [options]

Serves the agentchat tools (create_project, get_project, send_message) to MCP hosts: on stdio for
a host to start, or over MCP Streamable HTTP with --http.

Options:
  --http                    serve MCP Streamable HTTP at http://<host>:<port>/mcp instead of stdio
  --port <port>             port for --http; 0 picks a free one (default 8787)
  --host <address>          address for --http to bind (default 127.0.0.1)
  --allowed-origin <origin> a browser origin allowed besides loopback ones; repeat for more
  --allow-remote            bind a non-loopback --host, with a service key of the server's own
  --request-timeout <ms>    for --http, time a client has to send a whole request before it is cut
                            off (default 30000)
  --authorization-server <issuer>
                            be an OAuth 2.1 protected resource: accept access tokens of this
                            authorization server (scopes agentchat:read, agentchat:write) and call
                            the service with the server's own credential
  --resource <URL>          with --authorization-server, the URL callers reach /mcp at, which
                            tokens must be issued for (default the URL served; needed off loopback)
  --audience <value>        with --authorization-server, an aud tokens may carry instead of the
                            resource (Entra ID: the API's application id); repeat for more
  --introspection           with --authorization-server, also accept opaque tokens, checked by
                            introspection as AGENTCHAT_INTROSPECTION_CLIENT_ID and _SECRET
  --read-scope <name>       with --authorization-server, the scope get_project needs, as tokens
                            carry it (default agentchat:read; Entra ID: agentchat.read)
  --write-scope <name>      with --authorization-server, the scope create_project and
                            send_message need (default agentchat:write)
  --scope-prefix <prefix>   with --authorization-server, put before each scope in the metadata
                            and challenges, as hosts request it (Entra ID: api://<application id>/);
                            tokens may carry a scope with it or without
  --upstream-issuer <issuer>
                            be the authorization server hosts register with (a sign-in front),
                            signing each person in at this OpenID issuer (Entra ID, Okta, Google,
                            Keycloak) as the app registered there, whose redirect URI is
                            <origin of --resource>/oauth/callback; takes --resource and the scope
                            options as --authorization-server does
  --upstream-client-id <id> with --upstream-issuer, that app's client id (its secret in
                            AGENTCHAT_UPSTREAM_CLIENT_SECRET)
  --upstream-scope <scope>  with --upstream-issuer, the scope asked there (default
                            "openid profile email")
  --store <URL>             with --upstream-issuer, keep the front's state in Redis
                            (redis://host:6379), shared by replicas (default: memory)
  --trusted-proxy <range>   with --upstream-issuer, a proxy (address or CIDR range) whose
                            X-Forwarded-For names the caller the front's limits count; repeat for
                            more (default: none, each caller is its socket's address)
  --tools <a,b>             serve only these tools
  --read-only               serve only the tools that change nothing (get_project)
  --no-apps                 leave out the MCP Apps views (the reply with its suggestions as
                            buttons, the project as a card) that hosts rendering MCP Apps show;
                            with --read-only, only the project's is served
  -h, --help                show this help
  -v, --version             show the version

Environment:
  AGENTCHAT_BASE_URL        the service's base URL (required)
  AGENTCHAT_API_KEY         the service key; or, for OAuth 2.0 client credentials:
  AGENTCHAT_CLIENT_ID       with one of AGENTCHAT_CLIENT_SECRET, AGENTCHAT_PRIVATE_KEY_FILE
                            (private_key_jwt) or AGENTCHAT_CLIENT_ASSERTION_FILE (workload
                            identity), and AGENTCHAT_TOKEN_URL or AGENTCHAT_ISSUER; optionally
                            AGENTCHAT_SCOPE, AGENTCHAT_AUDIENCE, AGENTCHAT_RESOURCE,
                            AGENTCHAT_AUTH_METHOD, AGENTCHAT_KEY_ID, AGENTCHAT_KEY_ALGORITHM,
                            AGENTCHAT_CERTIFICATE_THUMBPRINT
  AGENTCHAT_IDENTITY_TOKEN_FILE
                            or no client credential at all (workload identity federation): the
                            platform's identity token file, with AGENTCHAT_TOKEN_URL or
                            AGENTCHAT_ISSUER (and AGENTCHAT_CLIENT_ID when the server wants one)
                            (with --http and no key of its own, each caller's key is used;
                            --authorization-server needs one)
  AGENTCHAT_INTROSPECTION_CLIENT_ID, AGENTCHAT_INTROSPECTION_CLIENT_SECRET
                            the client --introspection introspects tokens as
  AGENTCHAT_UPSTREAM_CLIENT_SECRET
                            the secret of the app --upstream-issuer signs people in as
  AGENTCHAT_SIGNING_KEY     with --upstream-issuer, the private key (JWK, or a PEM: PKCS#8, SEC1
                            EC or PKCS#1 RSA) access tokens are signed with: the same for every
                            replica (default: one made at start)
  AGENTCHAT_LOG             the client's log level on standard error (error, warn, info, debug)`;

/** What `agentchat-mcp` was asked to do, from its command line. */
export interface BinArguments {
  /** Serve (the default), or print the help or the version and exit. */
  readonly action: 'serve' | 'help' | 'version';
  /** Which face to serve: stdio (the default), or MCP Streamable HTTP with `--http`. */
  readonly face: 'stdio' | 'http';
  /** `--port`, for `--http`: 0 picks a free port. */
  readonly port: number;
  /** `--host`, the address to bind, for `--http`. */
  readonly host: string;
  /** `--allowed-origin`, repeatable: browser origins allowed besides loopback ones. */
  readonly allowedOrigins: readonly string[];
  /** `--allow-remote`: bind a non-loopback host with a key of the server's own. */
  readonly allowRemote: boolean;
  /**
   * `--request-timeout`, for `--http`: milliseconds a client has to send a whole request, headers
   * and body, before it gets 408 and is disconnected.
   */
  readonly requestTimeoutMs: number;
  /** `--tools a,b` and `--read-only`. */
  readonly scope: McpToolScope;
  /** False with `--no-apps`: the MCP Apps views are left out. */
  readonly apps: boolean;
  /** `--authorization-server`, `--resource` and `--introspection`: an OAuth protected resource. */
  readonly authorization: BinAuthorization | undefined;
}

/** The OAuth protected resource `agentchat-mcp --http` is asked to be. */
export interface BinAuthorization {
  /** `--authorization-server`: the issuer whose access tokens are accepted. */
  readonly issuer: string;
  /** `--resource`: the public URL of /mcp, when given. */
  readonly resource: string | undefined;
  /** `--audience`, repeatable: `aud` values accepted instead of the resource. */
  readonly audience: readonly string[];
  /** `--introspection`: opaque tokens are introspected. */
  readonly introspection: boolean;
  /** `--read-scope`, `--write-scope` and `--scope-prefix`, those given. */
  readonly scopeNames: McpScopeNames;
  /**
   * With `--upstream-issuer`, the sign-in front: `issuer` is then the upstream's, and the server
   * is the authorization server hosts meet.
   */
  readonly upstream: BinUpstream | undefined;
}

/** `--upstream-client-id` and `--upstream-scope`. */
export interface BinUpstream {
  readonly clientId: string;
  readonly scope: string | undefined;
  /** `--store`: a Redis URL, or `undefined` for memory. */
  readonly store: string | undefined;
  /** `--trusted-proxy`, repeatable: proxies whose `X-Forwarded-For` names the caller. */
  readonly trustedProxies: readonly string[];
}

const options = {
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  'allowed-origin': { type: 'string', multiple: true },
  'allow-remote': { type: 'boolean' },
  'request-timeout': { type: 'string' },
  tools: { type: 'string' },
  'read-only': { type: 'boolean' },
  'no-apps': { type: 'boolean' },
  'authorization-server': { type: 'string' },
  resource: { type: 'string' },
  audience: { type: 'string', multiple: true },
  introspection: { type: 'boolean' },
  'read-scope': { type: 'string' },
  'write-scope': { type: 'string' },
  'scope-prefix': { type: 'string' },
  'upstream-issuer': { type: 'string' },
  'upstream-client-id': { type: 'string' },
  'upstream-scope': { type: 'string' },
  store: { type: 'string' },
  'trusted-proxy': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** Options that only mean something with `--authorization-server`. */
const AUTHORIZATION_ONLY = [
  'resource',
  'audience',
  'introspection',
  'read-scope',
  'write-scope',
  'scope-prefix',
] as const;

/** Options that only mean something with `--http`. */
const HTTP_ONLY = [
  'port',
  'host',
  'allowed-origin',
  'allow-remote',
  'request-timeout',
  'authorization-server',
  ...AUTHORIZATION_ONLY,
  'upstream-issuer',
  'upstream-client-id',
  'upstream-scope',
  'store',
  'trusted-proxy',
] as const;

/**
 * Reads the bin's command line (without the node and script paths).
 *
 * @throws {@link ConfigurationError} for an unknown option (naming the one probably meant), a bad
 * value, or an HTTP option without `--http`.
 */
export function parseBinArguments(argv: readonly string[]): BinArguments {
  let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values'];
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (error) {
    if (!isParseArgsError(error)) throw error;
    throw new ConfigurationError(describeParseArgsError(error, options, 'agentchat-mcp'));
  }
  const face = values.http ? 'http' : 'stdio';
  const action = values.help ? 'help' : values.version ? 'version' : 'serve';
  if (face === 'stdio' && action === 'serve') {
    const stray = HTTP_ONLY.filter((name) => values[name] !== undefined);
    if (stray.length > 0) {
      throw new ConfigurationError(`--${stray[0]} is for the HTTP server: add --http.`);
    }
  }
  const upstreamIssuer = values['upstream-issuer'];
  const issuer = values['authorization-server'] ?? upstreamIssuer;
  const upstream = checkUpstream(values);
  if (issuer === undefined) {
    const stray = AUTHORIZATION_ONLY.find((name) => values[name] !== undefined);
    if (stray !== undefined) {
      throw new ConfigurationError(
        `--${stray} is for an OAuth protected resource: add --authorization-server.`,
      );
    }
  }
  return {
    action,
    face,
    port: parsePort(values.port ?? '8787'),
    host: values.host ?? '127.0.0.1',
    allowedOrigins: values['allowed-origin'] ?? [],
    allowRemote: values['allow-remote'] ?? false,
    requestTimeoutMs: parseRequestTimeout(values['request-timeout']),
    scope: {
      readOnly: values['read-only'] ?? false,
      // Checked against the tools when the server is made, which names the one meant.
      ...(values.tools !== undefined && {
        tools: values.tools
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '') as ToolName[],
      }),
    },
    apps: !values['no-apps'],
    authorization:
      issuer === undefined
        ? undefined
        : {
            issuer,
            resource: values.resource,
            audience: values.audience ?? [],
            introspection: values.introspection ?? false,
            scopeNames: scopeNames(values),
            upstream,
          },
  };
}

/** The sign-in front's flags, when `--upstream-issuer` is given; refuses those that clash. */
function checkUpstream(
  values: {
    readonly [name in keyof typeof options]?: string | boolean | string[] | undefined;
  },
): BinUpstream | undefined {
  const clientId = values['upstream-client-id'] as string | undefined;
  const scope = values['upstream-scope'] as string | undefined;
  const store = values.store as string | undefined;
  const trustedProxies = (values['trusted-proxy'] as string[] | undefined) ?? [];
  if (values['upstream-issuer'] === undefined) {
    const stray =
      clientId !== undefined
        ? 'upstream-client-id'
        : scope !== undefined
          ? 'upstream-scope'
          : store !== undefined
            ? 'store'
            : trustedProxies.length > 0
              ? 'trusted-proxy'
              : undefined;
    if (stray !== undefined) {
      throw new ConfigurationError(`--${stray} is for the sign-in front: add --upstream-issuer.`);
    }
    return undefined;
  }
  if (values['authorization-server'] !== undefined) {
    throw new ConfigurationError(
      '--authorization-server (hosts get tokens there) and --upstream-issuer (this server is the ' +
        'authorization server, signing people in there) do not go together: give one.',
    );
  }
  const clash = (['audience', 'introspection'] as const).find((name) => values[name] !== undefined);
  if (clash !== undefined) {
    throw new ConfigurationError(
      `--${clash} is for tokens of another authorization server; with --upstream-issuer this server issues its own.`,
    );
  }
  if (clientId === undefined || clientId === '') {
    throw new ConfigurationError(
      '--upstream-issuer needs --upstream-client-id, the client id of the app registered for this server there.',
    );
  }
  return { clientId, scope, store, trustedProxies };
}

/** `--read-scope`, `--write-scope` and `--scope-prefix`, those given, each a scope one may hold. */
function scopeNames(values: {
  'read-scope'?: string | undefined;
  'write-scope'?: string | undefined;
  'scope-prefix'?: string | undefined;
}): McpScopeNames {
  const names: McpScopeNames = {
    ...(values['read-scope'] !== undefined && { readScope: values['read-scope'] }),
    ...(values['write-scope'] !== undefined && { writeScope: values['write-scope'] }),
    ...(values['scope-prefix'] !== undefined && { scopePrefix: values['scope-prefix'] }),
  };
  // A bad name is a bad value on the command line: refused here, naming the flag.
  checkedScopeNames(names);
  return names;
}

function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) {
    throw new ConfigurationError(
      `--port ${JSON.stringify(value)} is not a port: give 0 to 65535 (0 picks a free one).`,
    );
  }
  return port;
}

/** As long as the mock's default: a client on a slow link sends a request in far less. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

function parseRequestTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_REQUEST_TIMEOUT_MS;
  const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  // 0 is refused, not taken as "no timeout": a server without one is held open by any slow client.
  if (!(Number.isSafeInteger(ms) && ms > 0)) {
    throw new ConfigurationError(
      `--request-timeout takes a whole number of milliseconds above 0, got ${JSON.stringify(value)}.`,
    );
  }
  return ms;
}
