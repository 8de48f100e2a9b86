/**
 * What scripts/ranges/run.ts needs to know beyond package.json: the packages that must move with a
 * peer at its lowest, and the test files each end runs.
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
 * Packages deep in a peer's own dependencies, held (through npm's `overrides`) at the newest
 * release that still takes the peer's floor. npm picks the newest release a dependency's range
 * allows whatever the peer installed beside it, so without these the lowest end would install a
 * tree npm itself reports invalid, which no test of the SDK's could pass.
 */
export const lowestOverrides: Readonly<Record<string, string>> = {
  // langchain 1.0.1 and @langchain/langgraph 1.0.0 take any checkpoint ^1.0.0; from 1.0.2 it
  // needs @langchain/core ^1.1.44 (it imports @langchain/core/utils/uuid, which 1.0.1 lacks).
  '@langchain/langgraph-checkpoint': '1.0.1',
};

/**
 * The test files (or folders) the lowest end runs: those that use a runtime dependency or an
 * optional peer, by the packages they prove at their floors. The rest of the suite (the
 * service's reliability under load, the networks, the repository's own release and reference
 * builds, the browsers) runs on the same code with the lockfile's versions in `npm test`, and at
 * the newest end.
 */
export const lowestTests: readonly string[] = [
  // ky (the transport) and zod (the schemas): the client's calls, retries, errors and validation.
  'test/client/',
  // ai with @ai-sdk/openai and @ai-sdk/anthropic, @openai/agents, @langchain/core with langchain,
  // @langchain/langgraph, @langchain/openai and @langchain/anthropic, @mastra/core: each
  // framework's tools in its own loop, through its provider packages, and the guide's recipes;
  // then the guides' samples compiled against each framework's types.
  'test/frameworks/',
  'test/docs/guides.test.ts',
  // @modelcontextprotocol/server and @modelcontextprotocol/node: the server, its transports
  // (stdio, Streamable HTTP, the Node.js listener), scopes, apps, the protocol's conformance
  // suite, and requests it refuses.
  'test/mcp/server.test.ts',
  'test/mcp/stdio.test.ts',
  'test/mcp/http.test.ts',
  'test/mcp/node-listener.test.ts',
  'test/mcp/scope.test.ts',
  'test/mcp/apps.test.ts',
  'test/mcp/conformance.test.ts',
  'test/mcp/malformed-request.test.ts',
  // jose, oidc-provider, openid-client and ipaddr.js: the MCP server's authorization and its
  // sign-in front (which fetches client documents only from public addresses).
  'test/mcp/authorization.test.ts',
  'test/mcp/front/',
  // redis: the shared OAuth token cache, and the sign-in front's store.
  'test/oauth/',
  'test/examples/oauth-redis-example.test.ts',
  'test/mcp/sign-in-front-ops-redis.test.ts',
  'test/mcp/sign-in-front-replay.test.ts',
  // @opentelemetry/instrumentation (and the API at the tests' own line: see lowestPins).
  'test/otel/',
  'test/diagnostics/otel-oauth.test.ts',
  'test/examples/opentelemetry.test.ts',
  'test/examples/opentelemetry-tracing.test.ts',
  // msw, both majors: the mock service and its test kit (the `mock on msw 2` project runs this
  // folder on msw 2), and the testing example, a user's own suite on it.
  'test/mock/',
  'examples/testing/',
];

/**
 * Test files and folders left out of the newest end's run, which is otherwise every project of
 * vitest.config.ts but the browsers': the repository's lockfile check, which a fresh resolution
 * changes by design.
 */
export const newestLeftOut: readonly string[] = ['test/release/lockfile.test.ts'];
