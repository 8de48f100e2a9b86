/**
 * Shared by the MCP over HTTP tests: `agentchat-mcp --http` as a child process (from source, or
 * the packed bin), found by the URL it prints on standard error.
 */
import type { ChildProcess } from 'node:child_process';
import { startProcess } from './run-process.js';

/** An MCP `initialize` request as a JSON body: what any valid token may send to `/mcp`. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'agentchat-tests', version: '1.0.0' },
  },
});

/** A running `agentchat-mcp --http`. */
export interface McpHttpProcess {
  /** The endpoint it printed, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** What it has printed on standard error so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
}

/**
 * Starts `command args` (a bin of agentchat-mcp with `--http`) and resolves once it prints its
 * endpoint; rejects with its standard error when it exits first.
 */
export async function startMcpHttp(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
): Promise<McpHttpProcess> {
  const {
    ready: url,
    child,
    stderr,
    exited,
  } = await startProcess(command, args, {
    ready: /serving MCP at (\S+)/,
    cwd: options.cwd,
    env: options.env,
  });
  return {
    url,
    child,
    stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
  };
}
