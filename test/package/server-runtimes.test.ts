import { describe, expect, inject, it } from 'vitest';
import {
  consumerPath,
  createRequestOf,
  expectedScenario,
  expectedUserAgent,
  runJson,
  useMockServer,
} from '../helpers/package-consumer.js';

const mock = useMockServer();
const { node, bun, deno } = inject('runtimes');

interface ServerRuntime {
  name: string;
  bin: string;
  /** Arguments before the script (Deno's permissions), given the mock's host and the build. */
  flags: (mockHost: string, build: 'esm' | 'cjs') => string[];
  /** Arguments before the script when the script starts its own mock from agentchat/testing. */
  selfFlags: string[];
  /** Its `fetch` is its own, not Node's undici over `node:net`, which msw 3 intercepts. */
  ownFetch: boolean;
}

const runtimes: ServerRuntime[] = [
  ...node.map(({ version, bin }) => ({
    name: `Node ${version}`,
    bin,
    flags: () => [],
    selfFlags: [],
    ownFetch: false,
  })),
  { name: `Bun ${bun.version}`, bin: bun.bin, flags: () => [], selfFlags: [], ownFetch: true },
  {
    name: `Deno ${deno.version}`,
    bin: deno.bin,
    // Only the network, and only to the mock: the client needs no other permission. Deno loads
    // CommonJS through its file system API, so a CJS program also needs to read its own folder.
    flags: (mockHost, build) => [
      'run',
      '--no-prompt',
      `--allow-net=${mockHost}`,
      ...(build === 'cjs' ? [`--allow-read=${consumerPath()}`] : []),
    ],
    // msw, which the mock server is built on, reads the environment and the file system.
    selfFlags: ['run', '--no-prompt', '--allow-net=127.0.0.1', '--allow-env', '--allow-read'],
    ownFetch: true,
  },
];

describe.each(runtimes)('$name', ({ name, bin, flags, selfFlags, ownFetch }) => {
  const slug = name.toLowerCase().replace(/\s+/g, '-');
  const mockHost = () => new URL(mock.server.url).host;

  it.each([
    { build: 'esm', how: 'import', script: 'esm.mjs', entry: 'dist/index.js' },
    { build: 'cjs', how: 'require', script: 'cjs.cjs', entry: 'dist/index.cjs' },
  ] as const)('runs the scenario with $how ($entry)', async ({ build, script, entry }) => {
    const label = `${slug}-${build}`;
    const args = [...flags(mockHost(), build), script, mock.server.baseUrl, label];
    expect(await runJson(bin, args)).toEqual({ ...expectedScenario(label), entry });
    expect(createRequestOf(mock.server, label).headers['user-agent']).toBe(expectedUserAgent());
  });

  it('serves the mock with startMockServer from agentchat/testing, ESM and CJS', async () => {
    const [esm, cjs] = await Promise.all([
      runJson(bin, [...selfFlags, 'esm.mjs', 'self', `${slug}-self-esm`]),
      runJson(bin, [...selfFlags, 'cjs.cjs', 'self', `${slug}-self-cjs`]),
    ]);
    expect(esm).toEqual({ ...expectedScenario(`${slug}-self-esm`), entry: 'dist/index.js' });
    expect(cjs).toEqual({ ...expectedScenario(`${slug}-self-cjs`), entry: 'dist/index.cjs' });
  });

  // The README's "Testing with the mock" setup, in the project npm installed with each msw major.
  // Deno is allowed the network to 127.0.0.1 only: a request msw let through to the mock's
  // https://agentchat.test fails there rather than leave the machine.
  const runtime = name.split(' ')[0];
  it.each([
    { msw: 3, dir: () => inject('consumerDir') },
    { msw: 2, dir: () => inject('msw2ConsumerDir') },
  ])(
    'serves the mock through setupServer and strictListen with msw $msw, or says what works',
    async ({ msw, dir }) => {
      const result = await runJson(bin, [...selfFlags, 'setup-server.mjs'], dir());

      expect(result.msw).toMatch(new RegExp(`^${msw}\\.`));
      const refused = ownFetch && msw === 3;
      expect(result).toEqual(
        refused
          ? {
              msw: result.msw,
              error: 'ConfigurationError',
              message:
                `agentchat/testing: msw 3's setupServer cannot intercept fetch on ${name}: it watches Node.js's sockets, which ${runtime}'s own fetch does not use, so every request would reach the network. ` +
                `On ${runtime}, install msw 2 (npm install --save-dev msw@^2.7), or serve the mock on a port with startMockServer().`,
            }
          : { msw: result.msw, stored: 1 },
      );
    },
  );
});

describe.each(node)('Node $version with both builds in one process', ({ bin }) => {
  it('keeps instanceof across the ESM and CJS builds', async () => {
    const seen = {
      notFoundIsNotFoundError: true,
      notFoundIsAPIError: true,
      notFoundIsAgentChatError: true,
      notFoundIsConflictError: false,
      notFoundPassesIsAPIError: true,
      invalidIsRequestValidationError: true,
      invalidIsAgentChatError: true,
      invalidIsAPIError: false,
      invalidPassesIsAgentChatError: true,
    };
    expect(await runJson(bin, ['dual.mjs', mock.server.baseUrl])).toEqual({
      distinctCopies: true,
      cjsErrorsSeenByEsm: seen,
      esmErrorsSeenByCjs: seen,
    });
  });
});
