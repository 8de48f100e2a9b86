import { AgentChatError } from './core/errors.js';
import { createLog, isLogLevel } from './core/logger.js';
import { type ClientOptions, clientOptionsSchema } from './core/options.js';
import { retryDefaults } from './core/retry.js';
import { Transport } from './core/transport.js';
import { validate } from './core/validation.js';
import { readEnv } from './internal/env.js';
import { isBrowserLike } from './internal/platform.js';
import { Chat } from './resources/chat.js';
import { Projects } from './resources/projects.js';
import { VERSION } from './version.js';

/**
 * The client's defaults, in one place (the retry policy's numbers live in `retryDefaults`).
 *
 * @example
 * ```ts
 * // Twice the default timeout for a slow agent.
 * const client = new Client({ timeout: clientDefaults.timeout * 2 });
 * ```
 */
export const clientDefaults = {
  /** Retries after the first attempt. */
  maxRetries: retryDefaults.maxRetries,
  /** How long one attempt may take, in ms. */
  timeout: 60_000,
} as const;

/**
 * The client for the Project and Agent Chat service.
 *
 * @example
 * ```ts
 * import { Client } from 'agentchat';
 *
 * const client = new Client({ apiKey: process.env.AGENTCHAT_API_KEY, baseUrl: 'https://host/api' });
 * const project = await client.projects.create({ name: 'Support', agentId: 'agent_42' });
 * const reply = await client.chat.send({ projectId: project.id, message: 'Hello!' });
 * console.log(reply.message);
 * ```
 */
export class Client {
  /** Create and read projects. */
  readonly projects: Projects;
  /** Chat with a project's agent. */
  readonly chat: Chat;
  /** The service root requests go to (before `/v1`), without a trailing slash. */
  readonly baseUrl: string;

  /**
   * Creates a client. Nothing is sent until the first call.
   *
   * @throws {@link AgentChatError} when an option is invalid, `apiKey` or `baseUrl` is missing
   * from both the options and the environment, or in a browser without `dangerouslyAllowBrowser`.
   * @example
   * ```ts
   * // AGENTCHAT_API_KEY and AGENTCHAT_BASE_URL supply what the options leave out.
   * const client = new Client({ maxRetries: 5 });
   * ```
   */
  constructor(options: ClientOptions = {}) {
    const checked = validate(clientOptionsSchema, options);
    if (!checked.ok) {
      const list = checked.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      throw new AgentChatError(`Invalid Client options: ${list}`);
    }
    const browser = isBrowserLike();
    if (browser && options.dangerouslyAllowBrowser !== true) {
      throw new AgentChatError(
        'Client refuses to run in a browser, where anyone who opens the page can read the API key. ' +
          'Call the service from your backend, or set dangerouslyAllowBrowser: true if the key is ' +
          'short-lived or user-scoped. See node_modules/agentchat/docs/browsers.md or ' +
          'https://github.com/agentchat/agentchat-js/blob/main/docs/browsers.md.',
      );
    }
    const apiKey = options.apiKey ?? readEnv('AGENTCHAT_API_KEY');
    if (apiKey === undefined) {
      throw new AgentChatError(
        'Missing API key: pass the apiKey option or set the AGENTCHAT_API_KEY environment variable.',
      );
    }
    this.baseUrl = resolveBaseUrl(options.baseUrl ?? readEnv('AGENTCHAT_BASE_URL'));
    const envLevel = readEnv('AGENTCHAT_LOG');
    const transport = new Transport({
      apiKey,
      baseUrl: this.baseUrl,
      maxRetries: options.maxRetries ?? clientDefaults.maxRetries,
      timeout: options.timeout ?? clientDefaults.timeout,
      headers: { ...options.headers },
      fetch: options.fetch,
      // Browsers forbid setting User-Agent; elsewhere it tells the service which SDK called.
      userAgent: browser ? undefined : `agentchat-js/${VERSION}`,
      log: createLog(
        options.logger ?? globalThis.console,
        options.logLevel ?? (isLogLevel(envLevel) ? envLevel : 'off'),
      ),
    });
    this.projects = new Projects(transport);
    this.chat = new Chat(transport);
  }

  /** Shows the client without its key, in `util.inspect` and `console.log`. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Client { baseUrl: '${this.baseUrl}' }`;
  }

  /** Serialises the client without its key. */
  toJSON(): {
    /** The service root requests go to. */
    baseUrl: string;
  } {
    return { baseUrl: this.baseUrl };
  }
}

function resolveBaseUrl(baseUrl: string | undefined): string {
  if (baseUrl === undefined) {
    throw new AgentChatError(
      'Missing base URL: pass the baseUrl option or set the AGENTCHAT_BASE_URL environment variable ' +
        '(the service root before /v1, such as https://host/api).',
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AgentChatError(
      `Invalid baseUrl ${JSON.stringify(baseUrl)}: expected an absolute http(s) URL.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentChatError(
      `Invalid baseUrl ${JSON.stringify(baseUrl)}: expected an http or https URL.`,
    );
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new AgentChatError(
      `Invalid baseUrl: it must not carry a query, a fragment or credentials (got ${url.origin}${url.pathname}...).`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
