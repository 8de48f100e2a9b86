/**
 * The candidate nearest to `word`, when one is near enough to be what was meant: the same but for
 * case, a few edits away (one for short words, three for long ones), or one containing the other
 * (`retries` for `maxRetries`). For "did you mean ...?".
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  // One more than the edits allowed: a candidate must come closer than this.
  let bestDistance = lower.length <= 4 ? 2 : lower.length <= 7 ? 3 : 4;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    const contains = lower.length >= 4 && (other.includes(lower) || lower.includes(other));
    const distance = contains ? 1 : editDistance(lower, other);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(
        substitution,
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
