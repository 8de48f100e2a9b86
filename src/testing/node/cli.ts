import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { describeParseArgsError, isParseArgsError } from '../../internal/command-line.js';
import { fromAlias } from '../../internal/deprecated.js';
import { isMissingPackage } from '../../internal/missing-package.js';
import { VERSION } from '../../version.js';
import type { MockAgent } from '../agent.js';
import { assertKnownOptions, SERVICE_DEFAULTS } from '../options.js';
import type { OAuthClient } from '../store/oauth-clients.js';
import { type ProjectSeed, seedProjects } from '../store/seeds.js';
import type { MockServer, MockServerOptions } from './server.js';
import { SERVER_DEFAULTS } from './server-defaults.js';

/** Where the command writes: standard output and standard error, one line per call. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** How a run of the command ended: serving, or finished with an exit code. */
export type CliOutcome = { kind: 'serving'; server: MockServer } | { kind: 'exit'; code: number };

/** The port `agentchat-mock` listens on unless told otherwise: the one the docs' examples use. */
const DEFAULT_PORT = 4010;

/** A placeholder key for the printed curl command when any key is accepted. */
const EXAMPLE_KEY = 'sk_test';

const USAGE = `Usage: agentchat-mock [options]

Serves the agentchat mock service over HTTP: the three operations under {base}/v1, an OAuth 2.0
token endpoint at {base}/oauth/token, CORS for pages on other origins.

Options:
  --port <port>             port to listen on; 0 picks a free one (default ${DEFAULT_PORT})
  --host <address>          address to listen on (default 127.0.0.1)
  --base-path <path>        path before /v1 (default /api)
  --key <key>               an API key to accept; repeat for more (default: any non-empty key)
  --client <id:secret>      an OAuth client to accept; repeat for more (default: any client)
  --trust-issuer <url>      an issuer of workload identity tokens whose tokens the token endpoint
                            takes (jwt-bearer, token exchange); repeat for more (default: none)
  --audience <aud>          an aud those tokens may name besides the token URL
  --token-lifetime-ms <ms>  lifetime of issued access tokens (default ${SERVICE_DEFAULTS.tokenLifetimeMs});
                            expires_in says it in seconds, rounded up
  --allowed-origin <origin> an origin allowed to call from a browser; repeat for more (default: any)
  --latency <ms>            latency added to every response (default 0)
  --seed <file.json>        projects to hold from the start: {"projects":[{"name","agentId",...}]}
  --agent <module>          a module whose default export answers chat messages in place of the
                            built-in agent: ({ project, message, request }) => ({ message, suggestions })
  --max-request-bytes <n>   largest request body taken; a larger one gets 413 (default ${SERVICE_DEFAULTS.maxRequestBytes})
  --request-log-limit <n>   how many of the latest requests the log keeps (default ${SERVICE_DEFAULTS.requestLogLimit})
  --request-timeout <ms>    time a client has to send a whole request before it is cut off (default ${SERVER_DEFAULTS.requestTimeoutMs})
  -h, --help                show this help
  -v, --version             show the version

Deprecated, kept until 2.0: --token-lifetime <s> (use --token-lifetime-ms), --cors-origin
(use --allowed-origin).`;

/** A command line the user has to correct; its message is the one line printed. */
class UsageError extends Error {}

/**
 * Runs `agentchat-mock` with its arguments: starts the mock HTTP server and prints its address
 * and a ready curl command, or prints help, the version, or one line saying what is wrong.
 * Exit codes: 0 after help or version, 2 for a bad command line, 1 when the server cannot start.
 *
 * @example
 * ```ts
 * const outcome = await runMockCli(['--port', '4010', '--key', 'sk_test'], {
 *   out: console.log,
 *   err: console.error,
 * });
 * if (outcome.kind === 'serving') await outcome.server.close();
 * ```
 */
export async function runMockCli(args: readonly string[], output: CliOutput): Promise<CliOutcome> {
  let options: MockServerOptions | 'help' | 'version';
  try {
    options = await readArguments(args, output);
  } catch (error) {
    if (!(error instanceof UsageError || isParseArgsError(error))) throw error;
    const message =
      error instanceof UsageError
        ? error.message
        : describeParseArgsError(error, OPTIONS, 'agentchat-mock');
    output.err(`agentchat-mock: ${message} (see agentchat-mock --help)`);
    return { kind: 'exit', code: 2 };
  }
  if (options === 'help') {
    output.out(USAGE);
    return { kind: 'exit', code: 0 };
  }
  if (options === 'version') {
    output.out(VERSION);
    return { kind: 'exit', code: 0 };
  }

  // A browser shows its page only "Failed to fetch": say here, once per origin, what to change.
  const refused = new Set<string>();
  const onCorsRefusal = (origin: string) => {
    if (refused.has(origin)) return;
    refused.add(origin);
    output.err(
      `agentchat-mock: refused a request from ${origin} (CORS); allow it with --allowed-origin ${origin}`,
    );
  };

  // The server (and msw with it) is loaded only to serve: --help and --version work without msw.
  let serverModule: typeof import('./server.js');
  try {
    serverModule = await import('./server.js');
  } catch (error) {
    if (!isMissingPackage(error, 'msw')) throw error;
    output.err(
      'agentchat-mock: needs msw, an optional peer dependency of agentchat: npm install --save-dev msw',
    );
    return { kind: 'exit', code: 1 };
  }
  let server: MockServer;
  try {
    server = await serverModule.startHookedMockServer(options, { onCorsRefusal });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The service refuses an option value (an origin, a base path) with ConfigurationError: the
    // command line's to correct, like a flag parseArgs refuses.
    if (error instanceof ConfigurationError) {
      output.err(`agentchat-mock: ${message} (see agentchat-mock --help)`);
      return { kind: 'exit', code: 2 };
    }
    const inUse = (error as { code?: unknown }).code === 'EADDRINUSE';
    output.err(`agentchat-mock: ${message}${inUse ? '; pick another with --port' : ''}`);
    return { kind: 'exit', code: 1 };
  }
  output.out(banner(server, options));
  return { kind: 'serving', server };
}

/** The command line `agentchat-mock` reads, as parseArgs takes it. */
const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'base-path': { type: 'string' },
  key: { type: 'string', multiple: true },
  client: { type: 'string', multiple: true },
  'trust-issuer': { type: 'string', multiple: true },
  audience: { type: 'string' },
  'token-lifetime-ms': { type: 'string' },
  'token-lifetime': { type: 'string' },
  'allowed-origin': { type: 'string', multiple: true },
  'cors-origin': { type: 'string', multiple: true },
  latency: { type: 'string' },
  seed: { type: 'string' },
  agent: { type: 'string' },
  'max-request-bytes': { type: 'string' },
  'request-log-limit': { type: 'string' },
  'request-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

async function readArguments(
  args: readonly string[],
  output: CliOutput,
): Promise<MockServerOptions | 'help' | 'version'> {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: OPTIONS,
  });
  if (values.help) return 'help';
  if (values.version) return 'version';

  const options: MockServerOptions = {
    port: values.port === undefined ? DEFAULT_PORT : wholeNumber('--port', values.port, 65_535),
  };
  if (values.host !== undefined) options.host = values.host;
  if (values['base-path'] !== undefined) options.basePath = values['base-path'];
  if (values.key !== undefined) options.apiKeys = values.key.map((key) => nonEmpty('--key', key));
  if (values.client !== undefined) options.oauthClients = values.client.map(readClient);
  if (values['trust-issuer'] !== undefined) {
    options.trustedIssuers = values['trust-issuer'].map(readIssuerUrl);
  }
  if (values.audience !== undefined) options.audience = nonEmpty('--audience', values.audience);
  const lifetime = aliasedFlag(
    values['token-lifetime-ms'],
    values['token-lifetime'],
    'token-lifetime-ms',
    'token-lifetime',
    output,
  );
  if (lifetime.value !== undefined) {
    const number = wholeNumber(lifetime.name, lifetime.value);
    options.tokenLifetimeMs = lifetime.name === '--token-lifetime' ? number * 1000 : number;
  }
  const origins = aliasedFlag(
    values['allowed-origin'],
    values['cors-origin'],
    'allowed-origin',
    'cors-origin',
    output,
  );
  if (origins.value !== undefined) options.allowedOrigins = origins.value;
  if (values.latency !== undefined) options.latencyMs = wholeNumber('--latency', values.latency);
  if (values.seed !== undefined) options.projects = await readSeed(values.seed);
  if (values.agent !== undefined) options.agent = await loadAgent(values.agent);
  const flags = values as Record<string, string | undefined>;
  for (const [flag, option] of [
    ['max-request-bytes', 'maxRequestBytes'],
    ['request-log-limit', 'requestLogLimit'],
    ['request-timeout', 'requestTimeoutMs'],
  ] as const) {
    const value = flags[flag];
    if (value !== undefined) options[option] = wholeNumber(`--${flag}`, value);
  }
  return options;
}

/**
 * A flag's value, given under its name or its deprecated alias (which warns once, on standard
 * error), and the flag it came under; both at once is a command line to correct.
 */
function aliasedFlag<T>(
  value: T | undefined,
  oldValue: T | undefined,
  flag: string,
  oldFlag: string,
  output: CliOutput,
): { value: T | undefined; name: string } {
  return fromAlias(
    value,
    oldValue,
    { name: `--${flag}`, oldName: `--${oldFlag}`, label: `agentchat-mock --${oldFlag}` },
    (message) => new UsageError(message),
    output.err,
  );
}

/** The projects of a seed file, `{ "projects": [...] }`, checked here to name the file. */
async function readSeed(file: string): Promise<ProjectSeed[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--seed ${file}: cannot read it (${codeOf(error)})`);
  }
  try {
    const seed = JSON.parse(text) as { projects?: ProjectSeed[] };
    assertKnownOptions(seed, ['projects'], 'A seed file', 'field');
    if (!Array.isArray(seed.projects)) throw new ConfigurationError('expected {"projects": [...]}');
    seedProjects(seed.projects);
    return seed.projects;
  } catch (error) {
    throw new UsageError(`--seed ${file}: ${(error as Error).message}`);
  }
}

/** The default export of a module, run in this process as the scripted agent. */
async function loadAgent(module: string): Promise<MockAgent> {
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(resolve(module)).href)) as { default?: unknown };
  } catch (error) {
    const reason = (error as Error).message?.split('\n')[0] ?? String(error);
    throw new UsageError(`--agent ${module}: cannot load it: ${reason}`);
  }
  if (typeof loaded.default !== 'function') {
    throw new UsageError(
      `--agent ${module}: its default export must be a function ({ project, message, request }) => reply, got ${typeof loaded.default}`,
    );
  }
  return loaded.default as MockAgent;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : String(error);
}

/** `id:secret`, split at the first colon: a secret may hold colons, an id cannot. */
function readClient(value: string): OAuthClient {
  const colon = value.indexOf(':');
  const clientId = value.slice(0, colon);
  const clientSecret = value.slice(colon + 1);
  if (colon < 0 || clientId === '' || clientSecret === '') {
    throw new UsageError(`--client takes <id>:<secret>, got ${JSON.stringify(value)}`);
  }
  return { clientId, clientSecret };
}

/** An issuer identifier, as `iss` has it: an http(s) URL. */
function readIssuerUrl(value: string): string {
  const protocol = URL.canParse(value) ? new URL(value).protocol : '';
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new UsageError(
      `--trust-issuer takes an issuer URL such as https://token.actions.githubusercontent.com, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function wholeNumber(flag: string, value: string, max = Number.MAX_SAFE_INTEGER): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number > max) {
    throw new UsageError(`${flag} takes a whole number up to ${max}, got ${JSON.stringify(value)}`);
  }
  return number;
}

function nonEmpty(flag: string, value: string): string {
  if (value === '') throw new UsageError(`${flag} takes a non-empty value`);
  return value;
}

/** `parseArgs` reports a bad command line with a TypeError whose code names the mistake. */

/** What the server accepts and how to try it, printed once it listens. */
function banner(server: MockServer, options: MockServerOptions): string {
  const { baseUrl } = server;
  const key = options.apiKeys?.[0] ?? EXAMPLE_KEY;
  const client = options.oauthClients?.[0] ?? { clientId: 'my-client', clientSecret: 'my-secret' };
  const keys = options.apiKeys ? options.apiKeys.join(', ') || 'none' : 'any non-empty key';
  const clients = options.oauthClients
    ? options.oauthClients.map(({ clientId }) => clientId).join(', ') || 'none'
    : 'any client id with a non-empty secret';
  const origins = options.allowedOrigins
    ? options.allowedOrigins.join(', ') || 'none'
    : 'any (narrow with --allowed-origin)';
  const issuers = options.trustedIssuers?.length
    ? `${options.trustedIssuers.map((entry) => (typeof entry === 'string' ? entry : entry.issuer)).join(', ')} (tokens for ${[`${baseUrl}/oauth/token`, ...(options.audience ? [options.audience] : [])].join(' or ')})`
    : 'none (add with --trust-issuer)';
  const seeded = server.service.projects().map(({ id }) => id);
  // RFC 6749 section 2.3.1: the id and the secret are form-urlencoded before HTTP Basic.
  const basic = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;

  return `agentchat mock service listening on ${baseUrl}
API keys: ${keys}
OAuth clients: ${clients}
Workload identity issuers: ${issuers}
Browser origins (CORS): ${origins}
Projects: ${seeded.length > 0 ? seeded.join(', ') : 'none yet'}
Agent: ${options.agent ? 'scripted (--agent)' : 'built in'}

Create a project:

  curl -s ${baseUrl}/v1/projects \\
    -H ${shellQuote(`Authorization: Bearer ${key}`)} \\
    -H 'Content-Type: application/json' \\
    -d '{"name":"Demo","agentId":"agent_support"}'

Get an access token (client credentials), then use it as the bearer key:

  curl -s ${baseUrl}/oauth/token -u ${shellQuote(basic)} -d grant_type=client_credentials

Then GET ${baseUrl}/v1/projects/<id> and POST ${baseUrl}/v1/projects/<id>/chat {"message":"Hello"}.
Ctrl+C stops it.`;
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice('v='.length);
}

/** One argument for a POSIX shell: in single quotes, a quote inside written as '\''. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
