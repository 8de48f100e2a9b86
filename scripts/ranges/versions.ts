import semver from 'semver';

/**
 * The lowest published version that `range` allows (prereleases left out, as npm leaves them out
 * of a range). A range no published version satisfies is an error: it claims nothing testable.
 */
export function lowestSatisfying(
  published: readonly string[],
  range: string,
  name: string,
): string {
  const lowest = semver.minSatisfying([...published], range);
  if (lowest === null) throw new Error(`No published version of ${name} satisfies ${range}`);
  return lowest;
}
