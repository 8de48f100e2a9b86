/**
 * The README's "Run it locally", as a reader follows it in a project that installed the tarball
 * (and msw): the mock started by `npx agentchat-mock` with the README's flags, and the Quickstart
 * saved without its `baseUrl` line and run with the README's environment. Only the port differs:
 * a free one, where the README names 4010, since other programs share this machine.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerPath } from '../helpers/package-consumer.js';
import { runProcess, startProcess } from '../helpers/run-process.js';

const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');

/** The text of README's section that opens with `heading`, up to the next heading of its level. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  const level = heading.split(' ')[0] ?? '';
  const end = readme.indexOf(`\n${level} `, start + heading.length + 2);
  return readme.slice(start, end === -1 ? undefined : end);
}

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
