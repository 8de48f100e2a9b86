/**
 * Parent side of the mock server's child process: start it, seed the project the reads and chats
 * go to, reset it between phases, stop it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** Messages the child sends. */
export type MockMessage = { type: 'ready'; baseUrl: string } | { type: 'reset-done' };
/** Messages the child understands. */
export type ParentMessage = { type: 'reset' };

/** The key every contender sends; the mock accepts any non-empty key. */
export const BENCH_API_KEY = 'sk-bench-0123456789abcdef';

/** A running mock server in its own process. */
export interface MockProcess {
  /** What clients take as `baseUrl`, e.g. `http://127.0.0.1:40123/api`. */
  readonly baseUrl: string;
  /**
   * Empties the server's store and logs, then creates one project and returns its id: the fixed
   * project that `projects.get` and `chat.send` use until the next reset.
   */
  reset(): Promise<string>;
  stop(): Promise<void>;
}

/** Options of {@link startMockProcess}. */
export interface MockProcessOptions {
  /**
   * Milliseconds the service waits before every answer (the mock's `latencyMs`); it stays through
   * resets. 0, the default, makes each request cost the server as little as the mock allows.
   */
  latencyMs?: number;
}

/** Forks bench/mock-server.ts and waits until it listens. */
export async function startMockProcess({
  latencyMs = 0,
}: MockProcessOptions = {}): Promise<MockProcess> {
  const script = fileURLToPath(new URL('./mock-server.ts', import.meta.url));
  const child = fork(script, [String(latencyMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextMessage(child);
  if (ready.type !== 'ready') throw new Error(`mock server sent ${ready.type} before ready`);
  const { baseUrl } = ready;

  return {
    baseUrl,
    async reset() {
      child.send({ type: 'reset' } satisfies ParentMessage);
      await nextMessage(child);
      return seedProject(baseUrl);
    },
    async stop() {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

function nextMessage(child: ChildProcess): Promise<MockMessage> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`mock server exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (message: MockMessage) => {
      child.off('exit', onExit);
      resolve(message);
    });
  });
}

async function seedProject(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench project', agentId: 'agent_bench' }),
  });
  if (response.status !== 201) throw new Error(`seeding the project failed: ${response.status}`);
  const { id } = (await response.json()) as { id: string };
  return id;
}
