#!/usr/bin/env node
/**
 * `agentchat-mcp`: the MCP server of agentchat/mcp, on stdio for MCP hosts to start (stdio.ts),
 * or with `--http` over MCP Streamable HTTP for remote agents (http.ts). Configured by its
 * command line (arguments.ts) and its environment (config.ts). Standard output carries nothing
 * but the stdio protocol: every message of its own, and the client's log lines
 * (`AGENTCHAT_LOG`), go to standard error.
 */
import { Client, isAgentChatError, type Logger } from '../index.js';
import { isMissingPackage } from '../internal/missing-package.js';
import { VERSION } from '../version.js';
import { type BinArguments, parseBinArguments, USAGE } from './arguments.js';
import { clientOptionsFromEnv, MCP_APP_INFO } from './config.js';

/**
 * The optional peers --http needs, as `npm install` takes them. The stdio face needs none: the
 * bin's build carries the MCP server SDK it runs on (see tsup.config.ts).
 */
const HTTP_PEERS = ['@modelcontextprotocol/server', '@modelcontextprotocol/node'] as const;

/** The client's log lines, whatever their level, on standard error. */
const stderrLogger: Logger = {
  error: (...line) => console.error(...line),
  warn: (...line) => console.error(...line),
  info: (...line) => console.error(...line),
  debug: (...line) => console.error(...line),
};

/**
 * Exit codes, as agentchat-mock has them and as shells use them: 2 for a command line the bin
 * cannot read (an unknown option, a bad value), 1 for any other failure to start.
 */
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

function fail(message: string, code = EXIT_FAILURE): number {
  process.stderr.write(`agentchat-mcp: ${message}\n`);
  return code;
}

async function main(): Promise<number> {
  let args: BinArguments;
  try {
    args = parseBinArguments(process.argv.slice(2));
  } catch (error) {
    if (isAgentChatError(error)) {
      return fail(`${error.message} (see agentchat-mcp --help)`, EXIT_USAGE);
    }
    throw error;
  }
  // On standard output: asked for, and no MCP host is reading it.
  if (args.action !== 'serve') {
    process.stdout.write(`${args.action === 'help' ? USAGE : VERSION}\n`);
    return 0;
  }
  // Loaded only now, so that a missing optional peer of --http is one line of advice, not a
  // stack trace.
  let face: typeof import('./stdio.js') | typeof import('./http.js');
  try {
    face = args.face === 'http' ? await import('./http.js') : await import('./stdio.js');
  } catch (error) {
    if (args.face !== 'http' || !HTTP_PEERS.some((name) => isMissingPackage(error, name))) {
      throw error;
    }
    return fail(
      `--http needs ${HTTP_PEERS.join(' and ')}, optional peer dependencies of agentchat: npm install ${HTTP_PEERS.join(' ')}`,
    );
  }

  try {
    if ('serveOnHttp' in face) {
      await face.serveOnHttp(args, process.env, stderrLogger);
    } else {
      const client = new Client({
        ...clientOptionsFromEnv(process.env),
        appInfo: MCP_APP_INFO,
        logger: stderrLogger,
      });
      face.serveOnStdio(client, args.scope, args.apps);
    }
  } catch (error) {
    // Configuration errors name the variable or option to set and never print a value of the
    // environment; a port already taken is one line too.
    if (isAgentChatError(error)) return fail(error.message);
    if ((error as { code?: unknown })?.code === 'EADDRINUSE') {
      return fail(`${(error as Error).message}: choose another --port (0 picks a free one).`);
    }
    throw error;
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
