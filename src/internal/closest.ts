/**
 * The candidate nearest to `word`, when one is near enough to be what was meant, for "did you
 * mean ...?". Every candidate is ranked the same way, by its edit distance to `word` (case aside;
 * two letters swapped count as one edit): the nearest wins, the first of equals. A candidate is
 * near enough when it is a few edits away (one for short words, three for long ones), or when one
 * word contains the other (`retries` for `maxRetries`); containing is no better than its
 * distance, so `fetchOption` means `fetchOptions`, one edit away, not `fetch`, which it contains.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  // One more than the edits allowed.
  const limit = lower.length <= 4 ? 2 : lower.length <= 7 ? 3 : 4;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    const distance = editDistance(lower, other);
    const near =
      distance < limit || (lower.length >= 4 && (other.includes(lower) || lower.includes(other)));
    if (near && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment): the fewest insertions,
 * deletions, substitutions and swaps of two neighbouring letters from `a` to `b`.
 */
function editDistance(a: string, b: string): number {
  // Rows i - 2, i - 1 and i of the table, by index into b.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let distance = Math.min(
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, (beforePrevious[j - 2] as number) + 1);
      }
      current[j] = distance;
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
