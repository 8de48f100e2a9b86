/**
 * What scripts/ranges/run.ts needs to know beyond package.json: the packages that must move with a
 * peer at its lowest, and the test files that check the repository's own install rather than the
 * package.
 */

/** The two ends of every declared range the tests run at. */
export type RangeEnd = 'newest' | 'lowest';

/**
 * Pinned beside the peers at the lowest end, each because the newest release of it needs a newer
 * peer than the peer's floor (or its major is the one a peer's floor belongs with). A value of
 * `null` leaves a peer at its devDependency's range, with the reason beside it.
 */
export const lowestPins: Readonly<Record<string, string | null>> = {
  // `ai` 6.0.0 speaks the provider specification of @ai-sdk/provider 3: the provider packages of
  // its own major (the 4.x line is `ai` 7's).
  '@ai-sdk/openai': '3.0.0',
  '@ai-sdk/anthropic': '3.0.0',
  // Their newest releases want @langchain/core ^1.2 or ^1.3; the 1.0 releases take core ^1.0.
  '@langchain/openai': '1.0.0',
  '@langchain/anthropic': '1.0.0',
  '@langchain/langgraph': '1.0.0',
  langchain: '1.0.1',
  // The peer range names two majors of msw: the mock's suite runs on each (vitest.config.ts's
  // `mock on msw 2` project through the `msw2` alias, every other project on `msw`), so each
  // major is pinned at its own floor.
  msw: '3.0.0',
  msw2: 'npm:msw@2.7.0',
  // @opentelemetry/api 1.9.0 is the 2.x line of OpenTelemetry JS, which the tests' SDK (the
  // current line, needing api ~1.10) cannot install beside. Its floor is proven by
  // test/package/otel.test.ts, whose `lowest` line installs api 1.9.0 and instrumentation
  // 0.200.0 with that line's SDK and runs the tarball's instrumentation against the mock.
  '@opentelemetry/api': null,
};

/**
 * Test files and folders left out of the run at each end. At both: the repository's lockfile check, which a fresh
 * resolution changes by design. At the lowest end also the repository's own release and
 * reference machinery (test/release: the tarball, the API report, the changesets, the workflows;
 * test/docs/reference.test.ts: TypeDoc over the source), which builds the package with the
 * repository's toolchain rather than running it beside older peers: the package's behaviour with
 * those peers is what the rest of the suite proves there.
 */
export const leftOut: Readonly<Record<RangeEnd, readonly string[]>> = {
  newest: ['test/release/lockfile.test.ts'],
  lowest: ['test/release', 'test/docs/reference.test.ts'],
};
