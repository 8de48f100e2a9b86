import { parseArgs } from 'node:util';
import { AgentChatError } from '../index.js';
import { closest } from '../internal/closest.js';
import type { McpToolScope, ToolName } from './scope.js';

/** What `agentchat-mcp` was asked to do, from its command line. */
export interface BinArguments {
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
  /** `--tools a,b` and `--read-only`. */
  readonly scope: McpToolScope;
}

const options = {
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  'allowed-origin': { type: 'string', multiple: true },
  'allow-remote': { type: 'boolean' },
  tools: { type: 'string' },
  'read-only': { type: 'boolean' },
} as const;

/** Options that only mean something with `--http`. */
const HTTP_ONLY = ['port', 'host', 'allowed-origin', 'allow-remote'] as const;

/**
 * Reads the bin's command line (without the node and script paths).
 *
 * @throws {@link AgentChatError} for an unknown option (naming the one probably meant), a bad
 * value, or an HTTP option without `--http`.
 */
export function parseBinArguments(argv: readonly string[]): BinArguments {
  let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values'];
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new AgentChatError(describeParseError(error));
  }
  const face = values.http ? 'http' : 'stdio';
  if (face === 'stdio') {
    const stray = HTTP_ONLY.filter((name) => values[name] !== undefined);
    if (stray.length > 0) {
      throw new AgentChatError(`--${stray[0]} is for the HTTP server: add --http.`);
    }
  }
  return {
    face,
    port: parsePort(values.port ?? '8787'),
    host: values.host ?? '127.0.0.1',
    allowedOrigins: values['allowed-origin'] ?? [],
    allowRemote: values['allow-remote'] ?? false,
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
  };
}

function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) {
    throw new AgentChatError(
      `--port ${JSON.stringify(value)} is not a port: give 0 to 65535 (0 picks a free one).`,
    );
  }
  return port;
}

/** parseArgs's own errors, worded like the client's: an unknown option names the one meant. */
function describeParseError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const known = Object.keys(options).map((name) => `--${name}`);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'(-{1,2}[^'=]+)/.exec(message ?? '')?.[1] ?? '';
    const meant = closest(given, known);
    return `Unknown option ${given}${meant ? `; did you mean ${meant}?` : ''} (the options are ${known.join(', ')}).`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return `agentchat-mcp takes options only (${known.join(', ')}).`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return (message ?? 'An option has a bad value').replace(/\.?$/, '.');
  }
  throw error;
}
