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

/**
 * Sequential calls: each sample is one awaited call (or the mean of `batch` of them, for timings
 * too short to read one at a time). Every round gives each contender one sample,
 * in an order rotated per round; `warmup` rounds run first and are not counted.
 */
export async function measureSequential(
  contenders: readonly Contender[],
  operation: Operation,
  projectId: string,
  { warmup, samples, batch = 1 }: { warmup: number; samples: number; batch?: number },
): Promise<Timings> {
  const calls = contenders.map((contender) => ({
    name: contender.name,
    call: callOf(contender, operation, projectId),
    samples: [] as number[],
  }));
  for (let round = 0; round < warmup + samples; round++) {
    for (const entry of rotate(calls, round)) {
      const started = performance.now();
      for (let i = 0; i < batch; i++) await entry.call();
      const elapsed = performance.now() - started;
      if (round >= warmup) entry.samples.push((elapsed * 1000) / batch);
    }
  }
  return new Map(calls.map((entry) => [entry.name, summarize(entry.samples)]));
}

/** Options of {@link measureBurst}. */
export interface BurstOptions {
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

/** Bursts' time per request, and each contender's ratio to raw fetch within the same round. */
export interface BurstTimings {
  timings: Timings;
  /**
   * Per contender, the summary over rounds of (its burst ÷ fetch's burst in that round). Pairing
   * the bursts of one round cancels what drifts between rounds (other processes, the server's
   * state), which a ratio of medians over the whole run would keep.
   */
  ratios: Map<ContenderName, Summary>;
}

/**
 * Bursts of `projects.get`: `requests` calls with `concurrency` in flight. Each sample is one
 * burst's wall time divided by its request count, so it reads as time per request (the inverse of
 * throughput). Rounds interleave the contenders like {@link measureSequential}.
 */
export async function measureBurst(
  contenders: readonly Contender[],
  options: BurstOptions,
): Promise<BurstTimings> {
  const samples = new Map<ContenderName, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < options.warmup + options.rounds; round++) {
    const projectId = await options.beforeRound();
    for (const contender of rotate(contenders, round)) {
      const call = callOf(contender, 'projects.get', projectId);
      const started = performance.now();
      await burst(call, options.requests, options.concurrency);
      const elapsed = performance.now() - started;
      if (round >= options.warmup)
        samples.get(contender.name)?.push((elapsed * 1000) / options.requests);
    }
  }
  const floor = samples.get('fetch') ?? [];
  return {
    timings: new Map([...samples].map(([name, values]) => [name, summarize(values)])),
    ratios: new Map(
      [...samples].map(([name, values]) => [
        name,
        summarize(values.map((value, round) => value / (floor[round] ?? Number.NaN))),
      ]),
    ),
  };
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
