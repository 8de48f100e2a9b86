/**
 * Shared by the MCP over HTTP tests: `agentchat-mcp --http` as a child process (from source, or
 * the packed bin), found by the URL it prints on standard error.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const repoBin = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));

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
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...options.env, PATH: `${repoBin}:${options.env.PATH ?? process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const match = /serving MCP at (\S+)/.exec(stderr);
      if (match) resolve(match[1] as string);
    });
    void exited.then(([code]) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
  };
}
