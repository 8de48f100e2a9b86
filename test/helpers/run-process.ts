import { type ChildProcessByStdio, type SpawnOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
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

/** How {@link runProcess} and {@link spawnWithInput} start a command. */
export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** Kills it (SIGKILL) after this many milliseconds, should it run on where it must stop. */
  timeoutMs?: number;
}

/**
 * Runs a command to its end and collects its output, whatever its exit code (the caller judges
 * that). The repo's `node_modules/.bin` comes first on PATH, so `node` is the project's Node 22.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ProcessResult> {
  return collectOutput(
    spawn(command, args, { ...spawnOptions(options), stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

/** A child process whose standard input stays open, and how it ends. */
export interface ProcessWithInput {
  /** The process: write to `child.stdin` as a host would, and end it to hang up. */
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Resolves with its exit code and everything it printed once it has closed. */
  readonly result: Promise<ProcessResult>;
}

/** As {@link runProcess}, but its standard input is a pipe left open for the caller to write. */
export function spawnWithInput(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): ProcessWithInput {
  const child = spawn(command, args, { ...spawnOptions(options), stdio: ['pipe', 'pipe', 'pipe'] });
  return { child, result: collectOutput(child) };
}

function spawnOptions(options: RunOptions): SpawnOptions {
  const env = options.env ?? process.env;
  return {
    cwd: options.cwd,
    // Another user's: root's tests see what a developer without root sees.
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    ...(options.timeoutMs === undefined
      ? {}
      : { timeout: options.timeoutMs, killSignal: 'SIGKILL' }),
    env: { ...env, PATH: `${repoBin}:${env.PATH ?? ''}` },
  };
}

/** Everything `child` prints, and its exit code, once it has closed. */
function collectOutput(
  child: ChildProcessByStdio<Writable | null, Readable, Readable>,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
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

/** A long-running child process, once it has printed that it is ready. */
export interface StartedProcess {
  /** The first group of the line that said it was ready, such as the URL a server listens on. */
  readonly ready: string;
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** What it has printed on standard error so far. */
  stderr(): string;
  /** Resolves with its exit code and signal once it has exited. */
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/**
 * Starts a server-like command and resolves once it prints a line that `ready` matches, on either
 * stream (its first group is given back, such as the URL it listens on); rejects with everything
 * it printed if it exits first. The repo's `node_modules/.bin` comes first on PATH.
 */
export async function startProcess(
  command: string,
  args: readonly string[],
  options: { ready: RegExp; cwd?: string | undefined; env?: NodeJS.ProcessEnv | undefined },
): Promise<StartedProcess> {
  const env = options.env ?? process.env;
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...env, PATH: `${repoBin}:${env.PATH ?? process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  let stderr = '';
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const ready = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      printed += chunk;
      const match = options.ready.exec(printed);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      read(chunk);
    });
    child.on('error', reject);
    void exited.then(([code]) => reject(new Error(`${command} exited with ${code}:\n${printed}`)));
  });
  return { ready, child, stderr: () => stderr, exited };
}
