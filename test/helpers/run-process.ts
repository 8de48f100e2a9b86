import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repo's own binaries, Node 22 among them, as `npm test` puts them first on PATH. */
const repoBin = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));

/** How a child process ended and everything it printed. */
export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end and collects its output, whatever its exit code (the caller judges
 * that). The repo's `node_modules/.bin` comes first on PATH, so `node` is the project's Node 22.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessResult> {
  const env = options.env ?? process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...env, PATH: `${repoBin}:${env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
