/**
 * docs/observability.md's OpenTelemetry setup, run as written: its NodeSDK block saved as the
 * file Node.js loads first (`node --import`), an application making one call against the mock
 * service, and the process left to end by itself. It prints the call's spans and ends cleanly,
 * with no collector on this machine to send them to.
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
  // Inside the repository, so that `agentchat/otel` resolves as the examples' imports do.
  await mkdir(join(repo, '.tmp'), { recursive: true });
  dir = await mkdtemp(join(repo, '.tmp', 'observability-setup-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const APP = `import { Client } from 'agentchat';

const client = new Client();
await client.projects.create({ name: 'Traced', agentId: 'agent_1' });
`;

describe("docs/observability.md's NodeSDK setup", { timeout: 60_000 }, () => {
  it('prints the spans of a call and ends without an error', async () => {
    const guide = await readFile(join(repo, 'docs/observability.md'), 'utf8');
    const setup = fencedTypeScript(guide, 'docs/observability.md').find(({ code }) =>
      code.includes('new NodeSDK('),
    );
    expect(setup?.code).toContain("from 'agentchat/otel'");
    await writeFile(join(dir, 'telemetry.mts'), setup?.code ?? '');
    await writeFile(join(dir, 'app.mts'), APP);

    const run = await runProcess(
      process.execPath,
      [...tsxLoader, '--import', './telemetry.mts', 'app.mts'],
      {
        cwd: dir,
        env: {
          ...process.env,
          AGENTCHAT_API_KEY: 'sk_observability',
          AGENTCHAT_BASE_URL: server.baseUrl,
          AGENTCHAT_LOG: '',
        },
      },
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The console exporter prints each span as an object: the call's and its attempt's.
    expect(run.stdout).toContain("name: 'projects.create'");
    expect(run.stdout).toContain("name: 'POST'");
  });
});
