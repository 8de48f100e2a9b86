/**
 * A real Redis for the token cache tests: Debian's `redis-server` (`.ci/run` installs it), started
 * on a free loopback port with nothing written to disk, and paused, stopped, or killed, by the
 * test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port.js';

/** A running redis-server. */
export interface RedisServer {
  /** Such as `redis://127.0.0.1:41234`. */
  readonly url: string;
  /** Kills it at once (SIGKILL), as a crash or a lost host would, and waits for it to be gone. */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port, once killed: resolves once it accepts connections. */
  restart(): Promise<void>;
  /**
   * Stops it without closing its connections (SIGSTOP), as a stalled server or a partition that
   * drops packets without a reset looks: connections stay open and nothing is answered.
   */
  pause(): void;
  /** Lets a paused server go on (SIGCONT): it answers what it was sent meanwhile. */
  resume(): void;
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const spawnOnPort = () =>
    spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
  let child = spawnOnPort();
  await ready(child);
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: () => stop(child),
    restart: async () => {
      await stop(child);
      child = spawnOnPort();
      await ready(child);
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}

/** Waits for the line Redis prints once it listens, or fails with what it printed instead. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
