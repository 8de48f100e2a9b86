/**
 * agentchat/openai-agents from the packed tarball, installed beside only the OpenAI Agents SDK (and
 * zod, its peer), at both ends of the range it supports (0.20.0, the first; the newest 0.x):
 * consumer/openai-agents-scenario.mjs runs the Agents SDK's own loop with its scripted model
 * against the mock service, and this test holds the one request it must abort;
 * consumer/openai-agents-cjs.cjs runs the loop from CommonJS.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useFrameworkConsumers } from '../helpers/framework-consumer.js';
import { useMockServer } from '../helpers/package-consumer.js';

const run = promisify(execFile);
const mock = useMockServer();
// No tracing export, which would otherwise try to reach OpenAI.
const { projectWith, runScenario, env } = useFrameworkConsumers('openai-agents', {
  files: ['openai-agents-scenario.mjs', 'openai-agents-cjs.cjs'],
  mock,
  extraEnv: { OPENAI_AGENTS_DISABLE_TRACING: '1' },
});

const VERSIONS = {
  '@openai/agents 0.20.0': '@openai/agents@0.20.0',
  '@openai/agents newest': '@openai/agents@>=0.20.0 <1.0.0',
} as const;

describe.each(Object.entries(VERSIONS))('agentchat/openai-agents with %s', (label, spec) => {
  it("runs the three tools in the Agents SDK's loop, from ESM and CJS: results, errors, approval, scope and abort", async () => {
    const folder = await projectWith([spec, 'zod@^4']);
    mock.server.service.enqueue({ kind: 'hang', path: '/v1/projects/proj_hang' });

    const result = await runScenario(folder, label);

    const [created, read, reply] = result.seen as object[];
    expect(created).toEqual({
      id: expect.stringMatching(/^proj_/),
      name: `Launch ${label}`,
      status: 'active',
      createdAt: expect.any(String),
    });
    expect(read).toMatchObject({ agentId: 'agent_support', metadata: {} });
    expect(reply).toEqual({ message: expect.any(String), suggestions: expect.any(Array) });
    // The run's items hold the typed values the model read as JSON.
    expect(result.outputs).toEqual([created, read, reply]);
    expect(result.text).toBe('Done.');
    expect(result.toolError).toMatch(
      /^NotFoundError: .*No project with id "proj_missing".*\(request id req_\w+\)$/,
    );
    expect(result.keyInInputs).toBe(false);
    expect(result.interruptions).toEqual(['create_project']);
    expect(result.sentBeforeApproval).toBe(0);
    expect(result.afterApproval).toBe('Created.');
    expect(result.sentAfterApproval).toBe(1);
    const names = mock.server.service.requestLog().map((r) => (r.body as { name?: string })?.name);
    expect(names).toContain(`Approved ${label}`);
    expect(result.offered).toEqual([
      [['get_project', false]],
      [
        ['create_project', false],
        ['send_message', false],
      ],
    ]);
    expect(result.aborted).toBe('the user moved on');
    expect(result.requestSignalReasons).toEqual(['the user moved on']);
    expect(result.modelCallsAfterAbort).toBe(0);

    const { stdout } = await run('node', ['openai-agents-cjs.cjs', mock.server.baseUrl], {
      cwd: folder,
      env,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      text: 'Created.',
      seen: expect.objectContaining({ name: 'From CJS', status: 'active' }),
      entries: ['dist/index.cjs', 'dist/openai-agents/index.cjs'],
    });
  }, 240_000);
});
