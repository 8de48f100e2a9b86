/**
 * The README and the guides are checked like code: every TypeScript sample compiles against the
 * current API, every relative link (and #anchor) leads somewhere, and the README keeps the
 * order a user reads it in.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import {
  fencedTypeScript,
  repo,
  type Snippet,
  typecheckSnippets,
} from '../helpers/doc-snippets.js';
import { installedVersion } from '../helpers/installed-version.js';
import { brokenRelativeLinks, linkTargets } from '../helpers/markdown-links.js';

/**
 * The Markdown a user or a contributor reads: README, the guides, the examples' index, and the
 * maintainers' pages (docs/maintainers/, kept in the repository, not shipped).
 */
async function markdownFiles(): Promise<string[]> {
  const markdownIn = async (dir: string) =>
    (await readdir(join(repo, dir)))
      .filter((file) => file.endsWith('.md'))
      .map((f) => `${dir}/${f}`);
  return [
    'README.md',
    'CONTRIBUTING.md',
    'examples/README.md',
    ...(await markdownIn('docs')),
    ...(await markdownIn('docs/maintainers')),
  ];
}

/** The repository's address on GitHub, from package.json's `repository`. */
async function repositoryUrl(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
    repository: { url: string };
  };
  return pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** Whether the installed version of the peer a sample needs is one it names. */
function installedFor({ needs }: Snippet): boolean {
  return needs === undefined || semver.satisfies(installedVersion(needs.name), needs.range);
}

describe('the guides', () => {
  it('have TypeScript samples that compile against the current API', async () => {
    const snippets: Snippet[] = [];
    for (const file of await markdownFiles()) {
      snippets.push(...fencedTypeScript(await readFile(join(repo, file), 'utf8'), file));
    }
    expect(snippets.length).toBeGreaterThan(20);
    const problems = await typecheckSnippets(snippets);
    const problemsOf = (snippet: Snippet) =>
      problems.filter((problem) => problem.startsWith(`${snippet.origin} `));
    const compiled: string[] = [];
    const compiledWithout: string[] = [];
    for (const snippet of snippets) {
      if (installedFor(snippet)) compiled.push(...problemsOf(snippet));
      // A sample that says it needs a newer peer than the one installed (the lowest end of its
      // range, `npm run test:lowest`) must need it, or what it says is not so.
      else if (problemsOf(snippet).length === 0) compiledWithout.push(snippet.origin);
    }
    expect(compiled).toEqual([]);
    expect(compiledWithout).toEqual([]);
    // One compilation of every sample, CPU alone: under 20 s on an idle machine, past 2 minutes
    // beside the rest of `npm run test:lowest` at a load of 15 on 2 cores.
  }, 300_000);

  it('have relative links that lead to files and headings that exist', async () => {
    expect(await brokenRelativeLinks(repo, await markdownFiles())).toEqual([]);
  });

  it('link into the repository (examples, tests, benchmarks) only at files and folders that exist', async () => {
    // Such links are absolute because those files do not ship in the package; a picture is
    // linked `raw`.
    const base = await repositoryUrl();
    const broken: string[] = [];
    let checked = 0;
    for (const file of await markdownFiles()) {
      for (const target of linkTargets(await readFile(join(repo, file), 'utf8'))) {
        if (!target.startsWith(`${base}/`)) continue;
        const match = target.slice(base.length).match(/^\/(blob|tree|raw)\/main\/([^#]+)$/);
        const path = match?.[2] ? join(repo, match[2]) : undefined;
        const found =
          path !== undefined &&
          existsSync(path) &&
          statSync(path).isDirectory() === (match?.[1] === 'tree');
        if (!found) broken.push(`${file}: ${target}`);
        checked++;
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });
});

describe('the README', () => {
  it("opens with the way to try the SDK in one's own project, then in a clone of the repository", async () => {
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const tryIt = readme.slice(0, readme.indexOf('\n## ', readme.indexOf('## Try it') + 1));
    // The package has no `demo` script: a reader's project needs its own commands (run as
    // written by test/package/readme-local.test.ts), and the repository's say where they work.
    expect(tryIt).toContain('npm install agentchat && npm install --save-dev msw');
    expect(tryIt).toContain('npx agentchat-mock --port 4010 --key sk_test');
    expect(tryIt).toMatch(/In a clone of this repository[^`]*```sh\nnpm install && npm run demo/);
    expect(tryIt).toContain('npm test');
  });

  it('names every runtime dependency of package.json, and no other, in Requirements', async () => {
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const start = readme.indexOf('Its runtime dependencies are');
    const sentence = readme.slice(start, readme.indexOf('In a browser bundle', start));
    const { dependencies } = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const named = [...sentence.matchAll(/\[([^\]]+)\]\(/g)].map((link) => link[1]);

    expect(start).toBeGreaterThan(-1);
    expect(named.sort()).toEqual(Object.keys(dependencies).sort());
  });

  it('has its sections in the order a user needs them', async () => {
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const order = [
      'Try it',
      'Install',
      'Quickstart',
      'Configuration',
      'Errors',
      'Retries',
      'Timeouts and cancellation',
      'Raw responses and request ids',
      'Browsers',
      'Testing with the mock',
      'Requirements',
      'Versioning and releases',
      'Contributing',
    ];
    expect(headings.filter((heading) => order.includes(heading ?? ''))).toEqual(order);
  });
});
