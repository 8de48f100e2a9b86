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
  let bestDistance = Infinity;
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
 * deletions, substitutions and swaps of two neighbouring letters from `a` to `b`. `rows[i][j]` is
 * the distance between the first `i` letters of `a` and the first `j` of `b`.
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    const above = rows[i - 1] ?? [];
    for (let j = 1; j <= b.length; j++) {
      row[j] =
        i === 0
          ? j
          : Math.min(
              (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
              (above[j] as number) + 1,
              (row[j - 1] as number) + 1,
              a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]
                ? (rows[i - 2]?.[j - 2] as number) + 1
                : Infinity,
            );
    }
    rows[i] = row;
  }
  return rows[a.length]?.[b.length] as number;
}
