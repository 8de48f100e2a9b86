/**
 * The README's "Try it" and "Run it locally", and docs/browsers.md's "Try it", as a reader follows
 * them in a project that installed the tarball (and msw): the mock started by `npx agentchat-mock`
 * with the docs' flags, then what the docs say to run against it. Only the port differs: a free
 * one, where the docs name 4010, since other programs share this machine. The commands that work
 * only in a clone of the repository are checked to say so.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerPath } from '../helpers/package-consumer.js';
import { runProcess, startProcess } from '../helpers/run-process.js';

const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const browsers = await readFile(new URL('../../docs/browsers.md', import.meta.url), 'utf8');

/** The text of the section that opens with `heading`, up to the next heading of its level. */
function section(heading: string, text = readme): string {
  const start = text.indexOf(`\n${heading}\n`);
  const level = heading.split(' ')[0] ?? '';
  const end = text.indexOf(`\n${level} `, start + heading.length + 2);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The paragraph just before the fenced block whose first line is `firstLine`. */
function introOf(text: string, firstLine: string): string {
  const fence = text.indexOf(`\`\`\`sh\n${firstLine}`);
  return text.slice(Math.max(0, text.lastIndexOf('\n\n', fence - 3)), fence);
}

/**
 * Starts `npx agentchat-mock` of a docs line (`npx agentchat-mock --port 4010 ...`) in the
 * consumer project, on a free port, and resolves once it printed the `Create a project` curl
 * command. Started directly from node_modules/.bin, so that stopping it stops the mock itself and
 * not only an npx wrapper around it.
 */
async function startDocsMock(line: string) {
  const [npx, bin, ...flags] = line.split(' ');
  expect([npx, bin]).toEqual(['npx', 'agentchat-mock']);
  return startProcess(
    consumerPath(`node_modules/.bin/${bin}`),
    flags.map((flag) => (flag === '4010' ? '0' : flag)),
    { ready: /Create a project:\n\n([\s\S]*?)\n\n/, cwd: consumerPath() },
  );
}

/** The base URL a started mock printed first. */
function baseUrlOf(curl: string): string {
  return curl.match(/(http:\/\/127\.0\.0\.1:\d+\/api)\//)?.[1] ?? '';
}

/** The consumer project installed the tarball (the registry's agentchat) and msw. */
async function expectPackageAndMswInstalled(): Promise<void> {
  for (const name of ['agentchat', 'msw']) {
    const manifest = JSON.parse(
      await readFile(consumerPath(`node_modules/${name}/package.json`), 'utf8'),
    ) as { name: string };
    expect(manifest.name).toBe(name);
  }
}

describe("README's Try it", () => {
  it('in your own project: installs, starts the mock, and the curl command it prints creates a project', async () => {
    const [project] = blocks(section('## Try it'), 'sh');
    expect(project).toEqual([
      'npm install agentchat && npm install --save-dev msw',
      'npx agentchat-mock --port 4010 --key sk_test',
    ]);
    await expectPackageAndMswInstalled();

    const mock = await startDocsMock(project?.[1] ?? '');
    try {
      const created = await runProcess('sh', ['-c', mock.ready], { cwd: consumerPath() });
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ id: expect.stringMatching(/^proj_/) });
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exited;
    }
  });

  it("says its other commands are the repository's, which an installed package does not have", async () => {
    const tryIt = section('## Try it');
    const [, clone] = blocks(tryIt, 'sh');
    expect(clone).toEqual(['npm install && npm run demo', 'npm test']);
    expect(introOf(tryIt, 'npm install && npm run demo')).toMatch(/In a clone of this repository/);
    // Why it must say so: in a user's project the script does not exist.
    const demo = await runProcess('npm', ['run', 'demo'], { cwd: consumerPath() });
    expect(demo.code).not.toBe(0);
    expect(demo.stderr).toContain('Missing script: "demo"');
  });
});

describe("docs/browsers.md's Try it", () => {
  const tryIt = browsers.slice(browsers.indexOf('Try it against the mock service'));

  it('says the example runs in a clone of the repository', () => {
    expect(introOf(tryIt, 'npm run mock')).toMatch(/in a clone of this repository/);
  });

  it('in your own project: the mock as written, and a backend with its address and key in the environment', async () => {
    const [, project] = blocks(tryIt, 'sh');
    expect(project).toEqual([
      'npm install --save-dev msw',
      'npx agentchat-mock --port 4010 --key sk_test',
      'AGENTCHAT_API_KEY=sk_test AGENTCHAT_BASE_URL=http://127.0.0.1:4010/api node server.js',
    ]);
    await expectPackageAndMswInstalled();
    const words = (project?.[2] ?? '').split(' ');
    const env = Object.fromEntries(
      words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split('=', 2)),
    );

    const mock = await startDocsMock(project?.[1] ?? '');
    const dir = await mkdtemp(join(consumerPath(), 'browsers-backend-'));
    try {
      // A backend's first call, its client configured by the environment alone.
      await writeFile(
        join(dir, 'server.js'),
        "import { Client } from 'agentchat';\nconst project = await new Client().projects.create({ name: 'Page', agentId: 'agent_1' });\nconsole.log(project.id);\n",
      );
      await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
      const backend = await runProcess('node', ['server.js'], {
        cwd: dir,
        env: { ...process.env, ...env, AGENTCHAT_BASE_URL: baseUrlOf(mock.ready) },
      });
      expect(backend.stderr).toBe('');
      expect(backend.stdout.trim()).toMatch(/^proj_\S+$/);
      expect(env).toEqual({
        AGENTCHAT_API_KEY: 'sk_test',
        AGENTCHAT_BASE_URL: 'http://127.0.0.1:4010/api',
      });
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exited;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** The fenced blocks of `text` in `language`, each as its lines, comments and blanks left out. */
function blocks(text: string, language: string): string[][] {
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (block) =>
      (block[1] ?? '')
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => line !== ''),
  );
}

describe("README's Run it locally", () => {
  it('runs the Quickstart against the mock the bin starts', async () => {
    const local = section('### Run it locally');
    const [setup, run] = blocks(local, 'sh');
    expect(setup).toEqual([
      'npm install --save-dev msw',
      'npx agentchat-mock --port 4010 --key sk_test',
    ]);
    // The consumer project installed msw with the tarball, as the first line does.
    expect(
      JSON.parse(await readFile(consumerPath('node_modules/msw/package.json'), 'utf8')).name,
    ).toBe('msw');

    const [quickstart] =
      section('## Quickstart')
        .match(/```ts\n([\s\S]*?)```/)
        ?.slice(1) ?? [];
    expect(quickstart).toContain("baseUrl: 'https://host/api'");
    const withoutBaseUrl = (quickstart ?? '')
      .split('\n')
      .filter((line) => !line.trim().startsWith('baseUrl:'))
      .join('\n');

    const [command] = run ?? [];
    const words = (command ?? '').split(' ');
    const env = Object.fromEntries(
      words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split('=', 2)),
    );
    expect(env).toEqual({
      AGENTCHAT_BASE_URL: 'http://127.0.0.1:4010/api',
      AGENTCHAT_API_KEY: 'sk_test',
    });
    expect(words.filter((word) => !/^[A-Z_]+=/.test(word))).toEqual(['node', 'quickstart.mjs']);

    // `npx agentchat-mock` runs the project's node_modules/.bin/agentchat-mock; started here
    // directly, so that stopping it stops the mock itself and not only an npx wrapper around it.
    const [bin, ...flags] = (setup?.[1] ?? '').split(' ').slice(1);
    expect(bin).toBe('agentchat-mock');
    const mock = await startProcess(
      consumerPath(`node_modules/.bin/${bin}`),
      flags.map((flag) => (flag === '4010' ? '0' : flag)),
      { ready: /listening on (\S+)/, cwd: consumerPath() },
    );
    const dir = await mkdtemp(join(consumerPath(), 'readme-local-'));
    try {
      await writeFile(join(dir, 'quickstart.mjs'), withoutBaseUrl);
      const result = await runProcess('node', ['quickstart.mjs'], {
        cwd: dir,
        env: { ...process.env, ...env, AGENTCHAT_BASE_URL: mock.ready },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const [created, replied] = result.stdout.trim().split('\n');
      expect(created).toMatch(/^proj_\S+ active$/);
      expect(replied).toMatch(/\S/);
    } finally {
      mock.child.kill('SIGTERM');
      await mock.exited;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
