import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  AgentChatError,
  type ClientCredentialsOptions,
  type ClientOptions,
  ConfigurationError,
  clientCredentials,
  identityTokenFile,
  type PrivateJwk,
  workloadIdentity,
} from '../index.js';
import { VERSION } from '../version.js';
import type { IntrospectionCredentials } from './token-verifier.js';

/**
 * How agentchat-mcp names itself in the User-Agent of its calls to the service
 * (`agentchat-js/<version> agentchat-mcp/<version>`), so that the service can tell it apart.
 */
export const MCP_APP_INFO = { name: 'agentchat-mcp', version: VERSION } as const;

/** The environment the bin reads: `process.env`, or a record of the same shape in tests. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The OAuth 2.0 client-credentials settings a configuration needs, in the order messages list
 * them: each is one variable, or one of a few that stand for the same thing.
 */
const OAUTH_REQUIRED = [
  ['AGENTCHAT_CLIENT_ID'],
  ['AGENTCHAT_CLIENT_SECRET', 'AGENTCHAT_PRIVATE_KEY_FILE', 'AGENTCHAT_CLIENT_ASSERTION_FILE'],
  ['AGENTCHAT_TOKEN_URL', 'AGENTCHAT_ISSUER'],
] as const;

/** The optional OAuth 2.0 settings, each for the clientCredentials option it names. */
const OAUTH_OPTIONAL = {
  AGENTCHAT_SCOPE: 'scope',
  AGENTCHAT_AUDIENCE: 'audience',
  AGENTCHAT_AUTH_METHOD: 'authMethod',
  AGENTCHAT_KEY_ID: 'keyId',
  AGENTCHAT_KEY_ALGORITHM: 'algorithm',
  AGENTCHAT_CERTIFICATE_THUMBPRINT: 'certificateThumbprint',
} as const;

/**
 * Workload identity federation's credential: the platform's identity token file, which takes the
 * place of a client's secret, key or assertion.
 */
const IDENTITY_TOKEN_FILE = 'AGENTCHAT_IDENTITY_TOKEN_FILE';

/** Every OAuth 2.0 setting: any one of them set means OAuth was meant. */
const OAUTH_VARIABLES = [
  ...OAUTH_REQUIRED.flat(),
  ...Object.keys(OAUTH_OPTIONAL),
  'AGENTCHAT_RESOURCE',
  IDENTITY_TOKEN_FILE,
] as const;

/** The required settings as a message lists them: `AGENTCHAT_TOKEN_URL (or AGENTCHAT_ISSUER)`. */
const named = ([first, ...others]: readonly [string, ...string[]]): string =>
  others.length === 0 ? first : `${first} (or ${others.join(' or ')})`;

/**
 * The client options `agentchat-mcp` runs with, from its environment: `AGENTCHAT_BASE_URL`, and
 * either `AGENTCHAT_API_KEY` or the OAuth 2.0 client-credentials settings: `AGENTCHAT_CLIENT_ID`;
 * one credential (`AGENTCHAT_CLIENT_SECRET`, `AGENTCHAT_PRIVATE_KEY_FILE` for private_key_jwt, or
 * `AGENTCHAT_CLIENT_ASSERTION_FILE` for workload identity, a token file read afresh for every
 * token request); where tokens come from (`AGENTCHAT_TOKEN_URL` or `AGENTCHAT_ISSUER`); and
 * optionally `AGENTCHAT_SCOPE`, `AGENTCHAT_AUDIENCE`, `AGENTCHAT_RESOURCE` (space-separated),
 * `AGENTCHAT_AUTH_METHOD`, `AGENTCHAT_KEY_ID`, `AGENTCHAT_KEY_ALGORITHM`,
 * `AGENTCHAT_CERTIFICATE_THUMBPRINT`; or, for workload identity federation (no secret at all),
 * `AGENTCHAT_IDENTITY_TOKEN_FILE` with `AGENTCHAT_TOKEN_URL` or `AGENTCHAT_ISSUER` (and
 * `AGENTCHAT_CLIENT_ID` when the server wants one). A blank variable counts as unset.
 *
 * A host starts the bin with the environment its configuration gives, so every message names the
 * variables to set, and never prints a value.
 *
 * @throws {@link ConfigurationError} when the base URL or the credentials are missing, when the OAuth
 * settings are incomplete or conflict, when a key file cannot be read, or when both an API key and
 * OAuth settings are given.
 */
export function clientOptionsFromEnv(
  env: Environment,
): Required<Pick<ClientOptions, 'apiKey' | 'baseUrl'>> {
  const read = reader(env);
  const baseUrl = baseUrlFromEnv(env);
  const apiKey = read('AGENTCHAT_API_KEY');
  const oauthSet = OAUTH_VARIABLES.filter((name) => read(name) !== undefined);
  const needed = `${listed(OAUTH_REQUIRED.map(named))}`;
  if (apiKey !== undefined && oauthSet.length > 0) {
    throw new ConfigurationError(
      `Both AGENTCHAT_API_KEY and ${oauthSet.join(', ')} are set: set either the API key or the ` +
        `OAuth 2.0 settings (${needed}), not both.`,
    );
  }
  if (apiKey !== undefined) return { apiKey, baseUrl };
  if (oauthSet.length === 0) {
    throw new ConfigurationError(
      `No credentials: set AGENTCHAT_API_KEY, or ${needed} for OAuth 2.0.`,
    );
  }
  const identityFile = read(IDENTITY_TOKEN_FILE);
  if (identityFile !== undefined) return { apiKey: federatedFromEnv(read, identityFile), baseUrl };
  const missing = OAUTH_REQUIRED.filter((group) => group.every((name) => read(name) === undefined));
  if (missing.length > 0) {
    throw new ConfigurationError(
      `Incomplete OAuth 2.0 settings: ${listed(missing.map(named))} ${missing.length === 1 ? 'is' : 'are'} ` +
        `not set (OAuth 2.0 needs ${needed}).`,
    );
  }
  for (const group of OAUTH_REQUIRED) {
    const given = group.filter((name) => read(name) !== undefined);
    if (given.length > 1) {
      throw new ConfigurationError(
        `${listed(given)} are ${given.length === 2 ? 'both' : 'all'} set: set only one of ${listed([...group])}.`,
      );
    }
  }
  const options: Record<string, unknown> = {
    tokenUrl: read('AGENTCHAT_TOKEN_URL'),
    issuer: read('AGENTCHAT_ISSUER'),
    clientId: read('AGENTCHAT_CLIENT_ID'),
    clientSecret: read('AGENTCHAT_CLIENT_SECRET'),
    resource: read('AGENTCHAT_RESOURCE')?.split(/\s+/),
  };
  for (const [variable, option] of Object.entries(OAUTH_OPTIONAL)) options[option] = read(variable);
  const keyFile = read('AGENTCHAT_PRIVATE_KEY_FILE');
  if (keyFile !== undefined) options.privateKey = privateKeyFromFile(keyFile);
  const assertionFile = read('AGENTCHAT_CLIENT_ASSERTION_FILE');
  if (assertionFile !== undefined) {
    // Read for every token request: a platform rotates the token in place (a Kubernetes
    // projected service-account token, every hour or so).
    options.clientAssertion = () => readSetting('AGENTCHAT_CLIENT_ASSERTION_FILE', assertionFile);
  }
  // clientCredentials refuses a bad setting with a ConfigurationError of its own.
  return { apiKey: clientCredentials(options as unknown as ClientCredentialsOptions), baseUrl };
}

/**
 * Workload identity federation from the environment: the identity token file (read afresh for
 * every token request, as the platform rotates it), traded by the jwt-bearer grant at
 * `AGENTCHAT_TOKEN_URL` or `AGENTCHAT_ISSUER`, with `AGENTCHAT_CLIENT_ID` when set and the optional
 * settings `workloadIdentity` takes.
 */
function federatedFromEnv(
  read: (name: string) => string | undefined,
  identityFile: string,
): ClientOptions['apiKey'] {
  const others = OAUTH_REQUIRED[1].filter((name) => read(name) !== undefined);
  if (others.length > 0) {
    throw new ConfigurationError(
      `${IDENTITY_TOKEN_FILE} and ${listed(others)} are set: the identity token file is the credential of workload identity federation; set only one.`,
    );
  }
  if (read('AGENTCHAT_TOKEN_URL') === undefined && read('AGENTCHAT_ISSUER') === undefined) {
    throw new ConfigurationError(
      `Incomplete workload identity settings: AGENTCHAT_TOKEN_URL (or AGENTCHAT_ISSUER) is not set (${IDENTITY_TOKEN_FILE} is traded for a token there).`,
    );
  }
  // workloadIdentity refuses a bad setting with a ConfigurationError of its own.
  return workloadIdentity({
    tokenUrl: read('AGENTCHAT_TOKEN_URL'),
    issuer: read('AGENTCHAT_ISSUER'),
    clientId: read('AGENTCHAT_CLIENT_ID'),
    identityToken: identityTokenFile(identityFile),
    scope: read('AGENTCHAT_SCOPE'),
    audience: read('AGENTCHAT_AUDIENCE'),
    resource: read('AGENTCHAT_RESOURCE')?.split(/\s+/),
  });
}

/** A private key file's contents: a PKCS#8 PEM, or a private JWK as JSON. */
function privateKeyFromFile(path: string): string | PrivateJwk {
  const text = readSettingSync('AGENTCHAT_PRIVATE_KEY_FILE', path);
  if (!text.trimStart().startsWith('{')) return text;
  try {
    return JSON.parse(text) as PrivateJwk;
  } catch {
    // Never the parser's message: it quotes the text, which is the key.
    throw new ConfigurationError(
      `AGENTCHAT_PRIVATE_KEY_FILE: ${path} starts like a JWK but is not JSON; give a PKCS#8 PEM or a private JWK.`,
    );
  }
}

function readSettingSync(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(unreadable(variable, path, error));
  }
}

/**
 * Read for each token request, long after start-up: a file missing for a moment while the
 * platform rotates it is not a setting to fix, so this is a plain AgentChatError.
 */
async function readSetting(variable: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new AgentChatError(unreadable(variable, path, error));
  }
}

/** Names the file and the reason (`ENOENT`), never a value. */
function unreadable(variable: string, path: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return `${variable}: cannot read ${path}${typeof code === 'string' ? ` (${code})` : ''}.`;
}

/**
 * True when the environment gives the server credentials of its own (`AGENTCHAT_API_KEY` or any
 * OAuth 2.0 setting). Over HTTP, without them, each request brings its caller's key.
 *
 * @example
 * ```ts
 * hasOwnCredentials({ AGENTCHAT_ISSUER: 'https://login.example.com' }); // true
 * ```
 */
export function hasOwnCredentials(env: Environment): boolean {
  const read = reader(env);
  return ['AGENTCHAT_API_KEY', ...OAUTH_VARIABLES].some((name) => read(name) !== undefined);
}

/**
 * The credentials `--introspection` introspects tokens with: `AGENTCHAT_INTROSPECTION_CLIENT_ID`
 * and `AGENTCHAT_INTROSPECTION_CLIENT_SECRET`.
 *
 * @throws {@link ConfigurationError} naming whichever is not set.
 */
export function introspectionFromEnv(env: Environment): IntrospectionCredentials {
  const read = reader(env);
  const clientId = read('AGENTCHAT_INTROSPECTION_CLIENT_ID');
  const clientSecret = read('AGENTCHAT_INTROSPECTION_CLIENT_SECRET');
  if (clientId === undefined || clientSecret === undefined) {
    const missing = [
      ...(clientId === undefined ? ['AGENTCHAT_INTROSPECTION_CLIENT_ID'] : []),
      ...(clientSecret === undefined ? ['AGENTCHAT_INTROSPECTION_CLIENT_SECRET'] : []),
    ];
    throw new ConfigurationError(
      `--introspection needs the client it introspects tokens as: ${listed(missing)} ` +
        `${missing.length === 1 ? 'is' : 'are'} not set.`,
    );
  }
  return { clientId, clientSecret };
}

/**
 * `AGENTCHAT_BASE_URL`, the service root.
 *
 * @throws {@link ConfigurationError} when it is not set.
 */
export function baseUrlFromEnv(env: Environment): string {
  const baseUrl = reader(env)('AGENTCHAT_BASE_URL');
  if (baseUrl === undefined) {
    throw new ConfigurationError(
      'AGENTCHAT_BASE_URL is not set: set it to the service root before /v1, such as https://host/api.',
    );
  }
  return baseUrl;
}

/** Reads a variable, trimmed; a blank one counts as unset. */
function reader(env: Environment): (name: string) => string | undefined {
  return (name) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
}

/** `A`, `A and B`, `A, B and C`. */
function listed(names: readonly string[]): string {
  return names.length <= 1
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
