import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { bundleForBrowser } from '../helpers/package-consumer.js';
import { runProcess } from '../helpers/run-process.js';

const repo = new URL('../..', import.meta.url).pathname;

/** The marker before a fenced block of docs/testing.md that is a file of a user's project. */
const RECIPE = /^<!-- recipe: (\S+) -->\n```\w*\n([\s\S]*?)\n```$/gm;

/** The recipes of docs/testing.md: each file a user's project would hold, by its path. */
async function recipes(): Promise<Map<string, string>> {
  const guide = await readFile(join(repo, 'docs/testing.md'), 'utf8');
  return new Map([...guide.matchAll(RECIPE)].map((match) => [match[1] ?? '', `${match[2]}\n`]));
}

/**
 * A user's project for the recipes, beside the consumer project that installed the tarball and
 * made from it, so the consumer stays as npm left it for the other packaging tests: the
 * installed `agentchat` copied in, its dependencies and msw linked from the consumer, and the
 * development tools the recipes use (vitest, Playwright, the MCP packages) linked from this
 * repository's install, the same versions a user would install. The consumer's own copy of a
 * package wins where it has one.
 */
async function recipeProject(consumer: string, label: string): Promise<string> {
  const project = join(dirname(consumer), `recipes-${label.replace(/\W+/g, '-')}`);
  await rm(project, { recursive: true, force: true });
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
  await writeFile(join(project, 'package.json'), '{"name":"recipes","private":true}\n');
  await cp(join(consumer, 'node_modules/agentchat'), join(project, 'node_modules/agentchat'), {
    recursive: true,
  });
  // The package's dependencies as its package.json names them, so that a new one comes along.
  const { dependencies } = JSON.parse(
    await readFile(join(project, 'node_modules/agentchat/package.json'), 'utf8'),
  ) as { dependencies: Record<string, string> };
  const linked = [...Object.keys(dependencies), 'msw', ...DEV_TOOLS];
  for (const name of linked) {
    const own = join(consumer, 'node_modules', name);
    const target = join(project, 'node_modules', name);
    await mkdir(dirname(target), { recursive: true });
    await symlink(existsSync(own) ? own : join(repo, 'node_modules', name), target);
  }
  // What npm links for the package's bin.
  await symlink(
    join(project, 'node_modules/agentchat/dist/bin/agentchat-mock.js'),
    join(project, 'node_modules/.bin/agentchat-mock'),
  );
  return project;
}

/** The development tools the recipes use, beside agentchat and msw. */
const DEV_TOOLS = [
  'vitest',
  'playwright',
  'playwright-core',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/server',
];

/** A free port on loopback, for the mock the end-to-end recipe starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The app under test of the end-to-end recipe, as its dev server would serve it: every path
 * is the page, its backend the mock's base URL.
 */
async function serveApp(backend: string): Promise<Server> {
  const { code } = await bundleForBrowser('e2e-app.mjs');
  const server = createServer((req, res) => {
    const script = req.url === '/app.js';
    res.setHeader('content-type', script ? 'text/javascript' : 'text/html');
    res.end(
      script
        ? code
        : `<!doctype html><title>app</title><script>window.AGENTCHAT_BASE_URL = ${JSON.stringify(backend)};</script><script type="module" src="/app.js"></script>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const projects = [
  { name: 'msw 3', msw: 3, dir: () => inject('consumerDir') },
  { name: 'msw 2', msw: 2, dir: () => inject('msw2ConsumerDir') },
];

describe('the recipes of docs/testing.md', () => {
  it('are all there: seeds, a scripted agent, overrides, Playwright end to end, an MCP agent, workload identity', async () => {
    expect([...(await recipes()).keys()]).toEqual([
      'test/projects.test.ts',
      'test/seeded-projects.test.ts',
      'test/scripted-agent.test.ts',
      'test/overrides.test.ts',
      'e2e/seed.json',
      'e2e/support-page.test.ts',
      'test/mcp-agent.test.ts',
      'test/workload-identity.test.ts',
      'e2e/workload-identity.test.ts',
    ]);
  });

  it.each(projects)(
    'run as written from the tarball, in a project on $name',
    async ({ name, msw, dir }) => {
      const project = await recipeProject(dir(), name);
      const installed = JSON.parse(
        await readFile(join(project, 'node_modules/msw/package.json'), 'utf8'),
      ) as { version: string };
      expect(installed.version).toMatch(new RegExp(`^${msw}\\.`));
      for (const [path, text] of await recipes()) {
        await mkdir(dirname(join(project, path)), { recursive: true });
        await writeFile(join(project, path), text);
      }
      const port = await freePort();
      const app = await serveApp(`http://127.0.0.1:${port}/api`);
      try {
        const { port: appPort } = app.address() as AddressInfo;
        const run = await runProcess(
          process.execPath,
          [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project, 'test/', 'e2e/'],
          {
            cwd: project,
            env: {
              ...process.env,
              APP_URL: `http://localhost:${appPort}`,
              MOCK_PORT: String(port),
              CHROMIUM_PATH: chromiumLaunchOptions.executablePath,
              NO_COLOR: '1',
            },
          },
        );

        expect(run.stdout + run.stderr).toMatch(/Test Files {2}8 passed \(8\)/);
        expect(run.stdout).toMatch(/Tests {2}11 passed \(11\)/);
        expect(run.code).toBe(0);

        // The first recipe's setup, strictListen included, with a test that fetches a real
        // address: the guard must fail it, on this msw major, rather than let it through.
        const setup = (await recipes()).get('test/projects.test.ts') ?? '';
        await writeFile(
          join(project, 'test/unmocked.test.ts'),
          `${setup}\nit('fetches an address the mock does not serve', async () => {\n  await fetch('https://api.example.com/v1/projects');\n});\n`,
        );
        const unmocked = await runProcess(
          process.execPath,
          [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project, 'test/unmocked'],
          { cwd: project, env: { ...process.env, NO_COLOR: '1' } },
        );
        expect(unmocked.stdout + unmocked.stderr).toContain(
          'GET https://api.example.com/v1/projects',
        );
        expect(unmocked.stdout).toMatch(/Tests {2}1 failed \| 1 passed \(2\)/);
        expect(unmocked.code).toBe(1);
      } finally {
        app.closeAllConnections();
        await new Promise((resolve) => app.close(resolve));
      }
    },
  );
});
