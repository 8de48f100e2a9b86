import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repo's own binaries, Node 22 among them, as `npm test` puts them first on PATH. */
const repoBin = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));

/**
 * Node's arguments that run a TypeScript file as it is: tsx's loader, imported into the one
 * process (`node ...tsxLoader file.ts`). The `tsx` command would start a second Node.js process
 * and relay signals to it: twice the start-up cost, and a SIGTERM that a loaded machine can
 * deliver to the relay in a way the program never sees.
 */
export const tsxLoader = [
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
] as const;

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
