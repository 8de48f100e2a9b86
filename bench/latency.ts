/**
 * Per-request time of each contender, measured in one process against one server and interleaved
 * round-robin per sample, so that drift (the server's heap growing, another process waking up, CPU
 * frequency) hits every contender alike.
 */
import { performance } from 'node:perf_hooks';
import type { Contender, ContenderName } from './contenders.js';
import { callOf, type Operation } from './operations.js';
import { rotate, type Summary, summarize } from './stats.js';

/** Per-contender summaries of per-request time, in microseconds. */
export type Timings = Map<ContenderName, Summary>;

/** Options of {@link measureSequential}. */
export interface SequentialOptions {
  /** Uncounted rounds first. */
  warmup: number;
  /** Counted rounds: samples per contender. */
  samples: number;
  /** Calls per sample, for timings too short to read one at a time; 1 by default. */
  batch?: number;
  /**
   * `wall` (the default): elapsed time, what a caller waits. `cpu`: this process's CPU time (all
   * its threads, garbage collection included), which other processes competing for the cores
   * barely move; only meaningful when nothing but the client runs in this process (a stub fetch).
   */
  clock?: 'wall' | 'cpu';
}

/** Microseconds now on the given clock. */
function now(clock: 'wall' | 'cpu'): number {
  if (clock === 'wall') return performance.now() * 1000;
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Sequential calls: each sample is one awaited call (or the mean of `batch` of them). Every round
 * gives each contender one sample, in an order rotated per round; `warmup` rounds run first and are
 * not counted.
 */
export async function measureSequential(
  contenders: readonly Contender[],
  operation: Operation,
  projectId: string,
  { warmup, samples, batch = 1, clock = 'wall' }: SequentialOptions,
): Promise<Timings> {
  const calls = contenders.map((contender) => ({
    name: contender.name,
    call: callOf(contender, operation, projectId),
    samples: [] as number[],
  }));
  for (let round = 0; round < warmup + samples; round++) {
    for (const entry of rotate(calls, round)) {
      const started = now(clock);
      for (let i = 0; i < batch; i++) await entry.call();
      const elapsed = now(clock) - started;
      if (round >= warmup) entry.samples.push(elapsed / batch);
    }
  }
  return new Map(calls.map((entry) => [entry.name, summarize(entry.samples)]));
}

/** Options of {@link measureBurst}. */
export interface BurstOptions {
  /** The operation every request of a burst makes. */
  operation: Operation;
  /** Requests in one burst. */
  requests: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Counted bursts per contender. */
  rounds: number;
  /** Uncounted bursts per contender first. */
  warmup: number;
  /** Called before each round; answers the project id to use in it (see MockProcess.reset). */
  beforeRound: () => Promise<string>;
}

/** Bursts' time per request, per contender, over rounds and round by round. */
export interface BurstTimings {
  timings: Timings;
  /** Each contender's samples in round order: entry `i` of every list comes from round `i`. */
  rounds: Map<ContenderName, number[]>;
}

/**
 * Bursts of `operation`: `requests` calls with `concurrency` in flight. Each sample is one burst's
 * wall time divided by its request count, so it reads as time per request (the inverse of
 * throughput). Rounds interleave the contenders like {@link measureSequential}.
 */
export async function measureBurst(
  contenders: readonly Contender[],
  options: BurstOptions,
): Promise<BurstTimings> {
  const rounds = new Map<ContenderName, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    const projectId = await options.beforeRound();
    for (const contender of rotate(contenders, round)) {
      const call = callOf(contender, options.operation, projectId);
      const started = performance.now();
      await burst(call, options.requests, options.concurrency);
      const elapsed = performance.now() - started;
      if (round >= options.warmup)
        rounds.get(contender.name)?.push((elapsed * 1000) / options.requests);
    }
  }
  return {
    timings: new Map([...rounds].map(([name, values]) => [name, summarize(values)])),
    rounds,
  };
}

/**
 * The summary over rounds of `name`'s time per request ÷ `reference`'s in the same round. Pairing
 * the bursts of one round cancels what drifts between rounds (other processes, the server's
 * state), which a ratio of medians over the whole run would keep. `inverse` gives the ratio of
 * throughputs instead (`reference`'s time ÷ `name`'s).
 */
export function pairedRatio(
  { rounds }: BurstTimings,
  name: ContenderName,
  reference: ContenderName,
  { inverse = false }: { inverse?: boolean } = {},
): Summary | undefined {
  const values = rounds.get(name);
  const floor = rounds.get(reference);
  if (!values || !floor) return undefined;
  return summarize(
    values.map((value, round) => {
      const ratio = value / (floor[round] ?? Number.NaN);
      return inverse ? 1 / ratio : ratio;
    }),
  );
}

/** Runs `call` `total` times with at most `concurrency` calls in flight. */
async function burst(call: () => Promise<unknown>, total: number, concurrency: number) {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}
