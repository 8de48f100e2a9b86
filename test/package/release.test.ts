/**
 * The maintainers' release flow of docs/maintainers/releasing.md, run for real against a real
 * registry (verdaccio on 127.0.0.1, see local-registry.ts), in a scratch copy of the repo:
 *
 * 1. `npm run version` (changeset version, then the version sync), a release commit, and
 *    `npm run release` (build, then changeset publish: npm publish and a git tag);
 * 2. a fresh project installs that version from the registry and runs a round trip against the
 *    mock service of the installed `agentchat/testing`;
 * 3. a new changeset, the next version published the same way, and the project upgrades to it;
 * 4. a prerelease: `changeset pre enter next`, a changeset, the same two commands, which publish
 *    `<version>-next.0` under the `next` dist-tag while `latest` stays; then `changeset pre exit`
 *    and the release of the same changesets as `latest`.
 *
 * The repo itself is only read: the tags, commits and builds happen in the copy, and the
 * registry, the copy and the project are deleted afterwards.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumped, largestBump, pendingChangesets } from '../../scripts/changesets.js';
import { expectedScenario } from '../helpers/package-consumer.js';
import { copyRepo } from '../helpers/repo-copy.js';
import { runProcess } from '../helpers/run-process.js';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** Each step builds, publishes or installs: tens of seconds on two busy cores. */
const STEP_TIMEOUT = 300_000;

let registry: LocalRegistry;
/** Holds the scratch repo, the consuming project and the maintainer's npm config. */
let work: string;
let scratch: string;
let consumer: string;
let env: NodeJS.ProcessEnv;
/** What the release rewrites in the copy, as the repo holds it: it must stay so. */
const RELEASE_FILES = ['package.json', 'CHANGELOG.md', 'src/version.ts'];
let repoBefore: { tags: string; files: string[] };

async function repoState(): Promise<{ tags: string; files: string[] }> {
  const tags = (await runProcess('git', ['tag', '--list'], { cwd: repo })).stdout;
  const files = await Promise.all(RELEASE_FILES.map((file) => readFile(join(repo, file), 'utf8')));
  return { tags, files };
}

async function run(command: string, args: string[], cwd: string): Promise<string> {
  const { code, stdout, stderr } = await runProcess(command, args, { cwd, env });
  if (code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${code} in ${cwd}:\n${stdout}\n${stderr}`);
  }
  return stdout;
}

/**
 * The environment of a maintainer's shell: none of the `npm_config_*` that `npm test` exported
 * (they would outrank the config below), an npm config that installs from and publishes to the
 * local registry, and git with no global or system config, so no signing or hooks apply.
 */
function maintainerEnv(userconfig: string): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  return {
    ...clean,
    npm_config_userconfig: userconfig,
    // Also what changeset publish passes on to npm: never the public registry from this test.
    npm_config_registry: registry.url,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Release Test',
    GIT_AUTHOR_EMAIL: 'release-test@example.com',
    GIT_COMMITTER_NAME: 'Release Test',
    GIT_COMMITTER_EMAIL: 'release-test@example.com',
  };
}

/**
 * The maintainer's release: version, commit, build and publish, as docs/maintainers/releasing.md
 * says.
 */
async function release(): Promise<string> {
  await run('npm', ['run', 'version'], scratch);
  const version = await packageVersion(scratch);
  await run('git', ['add', '--all'], scratch);
  // Nothing to commit when no changeset was pending: the version is already the one to publish.
  const status = await run('git', ['status', '--porcelain'], scratch);
  if (status.trim())
    await run('git', ['commit', '--quiet', '--message', `Release ${version}`], scratch);
  await run('npm', ['run', 'release'], scratch);
  return version;
}

async function packageVersion(dir: string): Promise<string> {
  return (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** What the consumer's check.mjs prints after the round trip. */
interface RoundTrip {
  version: string;
  userAgent: string;
  scenario: unknown;
}

async function roundTrip(): Promise<RoundTrip> {
  const stdout = await run('node', ['check.mjs'], consumer);
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as RoundTrip;
}

/** The versions and dist-tags the registry lists for agentchat. */
async function published(): Promise<{ versions: string[]; tags: Record<string, string> }> {
  const info = JSON.parse(await run('npm', ['view', 'agentchat', '--json'], work)) as {
    versions: string[];
    'dist-tags': Record<string, string>;
  };
  return { versions: info.versions, tags: info['dist-tags'] };
}

/**
 * The version the first release should get: package.json's own when no changeset is pending
 * (the state right after a release, or after folding changesets into an unpublished version),
 * else package.json's bumped by the largest pending changeset.
 */
async function expectedFirstVersion(): Promise<string> {
  const current = await packageVersion(repo);
  const largest = largestBump(await pendingChangesets(repo));
  return largest ? bumped(current, largest) : current;
}

beforeAll(async () => {
  repoBefore = await repoState();
  const upstream = (await runProcess('npm', ['config', 'get', 'registry'], { cwd: repo })).stdout;
  registry = await startLocalRegistry(upstream.trim());
  work = await mkdtemp(join(tmpdir(), 'agentchat-published-'));
  scratch = join(work, 'repo');
  consumer = join(work, 'consumer');
  await writeFile(join(work, 'npmrc'), registry.npmrc);
  env = maintainerEnv(join(work, 'npmrc'));
}, STEP_TIMEOUT);

afterAll(async () => {
  await registry?.close();
  // AGENTCHAT_KEEP_RELEASE=1 keeps the scratch repo and project for a look after a failure.
  if (work && !process.env.AGENTCHAT_KEEP_RELEASE) await rm(work, { recursive: true, force: true });
});

describe('a release, as maintainers cut it, against a real registry', () => {
  let first: string;
  let next: string;
  let preview: string;

  it(
    'publishes the current version with npm run version and npm run release, and tags it',
    async () => {
      await mkdir(scratch);
      await copyRepo(scratch, env);

      first = await release();

      // On main, with every changeset folded or released, this is package.json's version.
      expect(first).toBe(await expectedFirstVersion());
      expect(await run('git', ['tag', '--list'], scratch)).toBe(`v${first}\n`);
      expect(await published()).toEqual({ versions: [first], tags: { latest: first } });
    },
    STEP_TIMEOUT,
  );

  it(
    'installs that version from the registry into a fresh project, which runs against the mock',
    async () => {
      await mkdir(consumer);
      await writeFile(
        join(consumer, 'package.json'),
        `${JSON.stringify({ name: 'release-consumer', private: true }, null, 2)}\n`,
      );
      await cp(join(repo, 'test/package/consumer/scenario.cjs'), join(consumer, 'scenario.cjs'));
      await writeFile(join(consumer, 'check.mjs'), CHECK_SCRIPT);
      const msw = await packageVersion(join(repo, 'node_modules/msw'));
      await run(
        'npm',
        [
          'install',
          `agentchat@${first}`,
          `msw@${msw}`,
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
        ],
        consumer,
      );

      const lock = JSON.parse(await readFile(join(consumer, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version: string; resolved: string }>;
      };
      expect(lock.packages['node_modules/agentchat']?.version).toBe(first);
      expect(lock.packages['node_modules/agentchat']?.resolved).toMatch(
        new RegExp(`^${registry.url}agentchat/-/agentchat-${first}\\.tgz$`),
      );
      expect(existsSync(join(consumer, 'node_modules/agentchat/docs/README.md'))).toBe(true);
      expect(await roundTrip()).toEqual({
        version: first,
        userAgent: `agentchat-js/${first}`,
        scenario: expectedScenario('release'),
      });
    },
    STEP_TIMEOUT,
  );

  it(
    'publishes the next version from a new changeset, and the project upgrades to it',
    async () => {
      await writeFile(
        join(scratch, '.changeset', 'release-test-fix.md'),
        '---\n"agentchat": patch\n---\n\nA fix released by the release test.\n',
      );
      await run('git', ['add', '--all'], scratch);
      await run('git', ['commit', '--quiet', '--message', 'Fix something'], scratch);

      next = await release();

      expect(next).toBe(bumped(first, 'patch'));
      expect(await run('git', ['tag', '--list'], scratch)).toBe(`v${first}\nv${next}\n`);
      expect(await published()).toEqual({ versions: [first, next], tags: { latest: next } });
      const changelog = await readFile(join(scratch, 'CHANGELOG.md'), 'utf8');
      expect(changelog).toMatch(
        new RegExp(`^# Changelog\\n\\n## ${next}\\n[\\s\\S]*A fix released by the release test\\.`),
      );

      await run(
        'npm',
        ['install', 'agentchat@latest', '--no-audit', '--no-fund', '--loglevel=error'],
        consumer,
      );

      const manifest = JSON.parse(await readFile(join(consumer, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      expect(manifest.dependencies.agentchat).toBe(`^${next}`);
      expect(await roundTrip()).toEqual({
        version: next,
        userAgent: `agentchat-js/${next}`,
        scenario: expectedScenario('release'),
      });
    },
    STEP_TIMEOUT,
  );

  it(
    'publishes a prerelease under next from changeset pre mode, while latest stays, and leaves pre mode for the release',
    async () => {
      await run('npx', ['changeset', 'pre', 'enter', 'next'], scratch);
      await writeFile(
        join(scratch, '.changeset', 'release-test-preview.md'),
        '---\n"agentchat": minor\n---\n\nA feature previewed by the release test.\n',
      );
      await run('git', ['add', '--all'], scratch);
      await run('git', ['commit', '--quiet', '--message', 'Preview something'], scratch);

      preview = await release();

      expect(preview).toBe(`${bumped(next, 'minor')}-next.0`);
      expect(await run('git', ['tag', '--list'], scratch)).toBe(
        `v${first}\nv${next}\nv${preview}\n`,
      );
      expect(await published()).toEqual({
        versions: [first, next, preview],
        tags: { latest: next, next: preview },
      });
      // The API reports are the prerelease's, as the Version Packages pull request would carry.
      expect(await readFile(join(scratch, 'api/agentchat.api.md'), 'utf8')).toContain(
        `export const VERSION = "${preview}";`,
      );

      // A user who asks for the preview gets it; `npm install agentchat` would still get `next`.
      await run(
        'npm',
        ['install', 'agentchat@next', '--no-audit', '--no-fund', '--loglevel=error'],
        consumer,
      );
      expect(await roundTrip()).toEqual({
        version: preview,
        userAgent: `agentchat-js/${preview}`,
        scenario: expectedScenario('release'),
      });

      // Leaving pre mode, the same changesets make the release, published as latest.
      await run('npx', ['changeset', 'pre', 'exit'], scratch);
      await run('git', ['add', '--all'], scratch);
      await run('git', ['commit', '--quiet', '--message', 'Leave pre mode'], scratch);
      const final = await release();
      expect(final).toBe(bumped(next, 'minor'));
      expect(await published()).toEqual({
        versions: [first, next, preview, final],
        tags: { latest: final, next: preview },
      });
      // Every changeset folded into the release: what the repository holds of .changeset is its
      // config (changesets 3 leaves pre mode's folder behind, empty, which git does not keep).
      expect((await run('git', ['ls-files', '.changeset'], scratch)).trim()).toBe(
        '.changeset/config.json',
      );
    },
    STEP_TIMEOUT * 2,
  );

  it('leaves the repository as it was: no new tag, no version or changelog change', async () => {
    expect(preview).toBeDefined();
    expect(await repoState()).toEqual(repoBefore);
  });
});

/**
 * The consumer's program: the installed package's own mock server, the scenario every runtime
 * of the packaging suite runs, and the version the package reports and sends.
 */
const CHECK_SCRIPT = `import { createRequire } from 'node:module';
import * as sdk from 'agentchat';
import { startMockServer } from 'agentchat/testing';

const { runScenario } = createRequire(import.meta.url)('./scenario.cjs');
const server = await startMockServer({ port: 0 });
try {
  const scenario = await runScenario(sdk, server.baseUrl, 'release');
  const userAgent = server.service.requestLog()[0]?.headers['user-agent'];
  console.log(JSON.stringify({ version: sdk.VERSION, userAgent, scenario }));
} finally {
  await server.close();
}
`;
