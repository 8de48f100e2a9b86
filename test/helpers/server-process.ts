/**
 * Our servers as separate processes, for probes that read the server's own memory: the process is
 * Node itself (`node --import tsx <bin>`, no wrapper process between), so its pid is the one whose
 * `/proc/<pid>/status` tells its resident memory. It also loads gc-on-signal.ts, so that a probe
 * can have it collect its garbage before reading what it keeps.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startProcess, tsxLoader } from './run-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** A server running in a process of its own. */
export interface ServerProcess {
  /** The address it printed, such as `http://127.0.0.1:41234/api`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** What it printed on standard error so far. */
  stderr(): string;
  /** Has it run a full garbage collection; resolves once it has. */
  collectGarbage(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL if it lingers) and waits for it to be gone. */
  stop(): Promise<void>;
}

/**
 * Starts `node <tsx's loader> <script> ...args` in the repo, resolving once it prints a line that
 * `ready` matches (its first group is the URL); rejects with what it printed if it exits first.
 */
export async function startServerProcess(
  script: string,
  args: readonly string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  const hook = fileURLToPath(new URL('./gc-on-signal.ts', import.meta.url));
  const node = ['--expose-gc', ...tsxLoader, '--import', hook];
  const {
    ready: url,
    child,
    stderr: printed,
    exited,
  } = await startProcess(process.execPath, [...node, script, ...args], {
    ready,
    cwd: repo,
    env: { PATH: process.env.PATH, ...env },
  });
  const collections = () => printed().split('gc-on-signal: collected').length;
  return {
    url,
    child,
    stderr: () => printed().replaceAll('gc-on-signal: collected\n', ''),
    collectGarbage: async () => {
      const done = collections();
      child.kill('SIGUSR2');
      while (collections() === done) await once(child.stderr, 'data');
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Resident memory of a process, read from the kernel: now, and the peak since the last reset. */
export interface Memory {
  /** VmRSS, in bytes. */
  readonly rss: number;
  /** VmHWM, the peak resident memory since the process started or `resetPeak`, in bytes. */
  readonly peak: number;
}

/** Reads `/proc/<pid>/status`. */
export async function memoryOf(pid: number): Promise<Memory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/** Starts a new peak: VmHWM becomes the current VmRSS (Linux's `clear_refs`, value 5). */
export async function resetPeak(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, '5');
}

/** One MiB, for memory figures. */
export const MiB = 1024 * 1024;
