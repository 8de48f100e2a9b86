/**
 * docs/retries.md's retry-budget example, run as written against the mock service: it handles the
 * spent budget and leaves every other failure to its caller, so a copy of it never swallows a
 * `NotFoundError`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { fencedTypeScript, repo } from '../helpers/doc-snippets.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

let server: MockServer;
let dir: string;
beforeAll(async () => {
  server = await startMockServer();
  // Inside the repository, so that `agentchat` resolves to src/ as the guides' samples do.
  await mkdir(join(repo, '.tmp'), { recursive: true });
  dir = await mkdtemp(join(repo, '.tmp', 'retries-budget-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("docs/retries.md's retry-budget example", () => {
  it('lets a NotFoundError through to its caller', async () => {
    const guide = await readFile(join(repo, 'docs/retries.md'), 'utf8');
    const [example] = fencedTypeScript(guide, 'docs/retries.md').filter(({ code }) =>
      code.includes('error.retryBudgetExhausted'),
    );
    expect(example?.code).toContain("client.projects.get('proj_123')");
    await writeFile(join(dir, 'budget.ts'), example?.code ?? '');

    const run = await runProcess(process.execPath, [...tsxLoader, join(dir, 'budget.ts')], {
      env: {
        PATH: process.env.PATH ?? '',
        AGENTCHAT_API_KEY: 'sk_test',
        AGENTCHAT_BASE_URL: server.baseUrl,
      },
    });

    // The mock has no proj_123: the example's call fails with a 404, which reaches the top.
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('NotFoundError');
    expect(server.service.requestLog().map(({ status }) => status)).toEqual([404]);
  });
});
