#!/usr/bin/env node
/**
 * `agentchat-mcp`: the MCP server of agentchat/mcp on stdio, for MCP hosts to start. Configured
 * by its environment (see config.ts). Standard output carries the protocol and nothing else:
 * every message of its own, and the client's log lines (`AGENTCHAT_LOG`), go to standard error.
 */
import { Client, isAgentChatError, type Logger } from '../index.js';
import { isMissingPackage } from '../internal/missing-package.js';
import { clientOptionsFromEnv } from './config.js';

const PEER = '@modelcontextprotocol/server';

/** The client's log lines, whatever their level, on standard error. */
const stderrLogger: Logger = {
  error: (...line) => console.error(...line),
  warn: (...line) => console.error(...line),
  info: (...line) => console.error(...line),
  debug: (...line) => console.error(...line),
};

function fail(message: string): number {
  process.stderr.write(`agentchat-mcp: ${message}\n`);
  return 1;
}

async function main(): Promise<number> {
  // Loaded only now, so that a missing optional peer is one line of advice, not a stack trace.
  let modules: [typeof import('@modelcontextprotocol/server/stdio'), typeof import('./server.js')];
  try {
    modules = await Promise.all([
      import('@modelcontextprotocol/server/stdio'),
      import('./server.js'),
    ]);
  } catch (error) {
    if (!isMissingPackage(error, PEER)) throw error;
    return fail(`needs ${PEER}, an optional peer dependency of agentchat: npm install ${PEER}`);
  }
  const [{ serveStdio }, { createMcpServer }] = modules;

  let client: Client;
  try {
    client = new Client({ ...clientOptionsFromEnv(process.env), logger: stderrLogger });
  } catch (error) {
    // Configuration errors name the variable to set and never print its value.
    if (isAgentChatError(error)) return fail(error.message);
    throw error;
  }
  serveStdio(() => createMcpServer({ client }), {
    onerror: (error) => process.stderr.write(`agentchat-mcp: ${error.message}\n`),
  });
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
