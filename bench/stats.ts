/** Summary of one set of samples. */
export interface Summary {
  median: number;
  p90: number;
  samples: number;
}

/** Median and 90th percentile (nearest rank) of `samples`. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('no samples to summarize');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const middle = sorted.length / 2;
  const median = Number.isInteger(middle)
    ? ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
    : (sorted[Math.floor(middle)] as number);
  return { median, p90: rank(0.9) as number, samples: sorted.length };
}

/** The median of `samples`. */
export function median(samples: readonly number[]): number {
  return summarize(samples).median;
}

/**
 * `items` in an order that starts one further along on each round, so that no contender always
 * runs first (after the server idled) or last.
 */
export function rotate<T>(items: readonly T[], round: number): T[] {
  const start = round % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}
