/**
 * agentchat/mastra from the packed tarball, installed beside only @mastra/core (and zod, its
 * peer), at both ends of the range it supports (1.58.0, the first 1.x to send a tool that is not
 * strict with its own schema to every provider; the latest 1.x): consumer/mastra-scenario.mjs runs Mastra's own agent loop with a
 * scripted model (consumer/mastra-model.mjs) against the mock service, and this test holds the one
 * request it must abort; consumer/mastra-cjs.cjs does a run through require().
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useFrameworkConsumers } from '../helpers/framework-consumer.js';
import { useMockServer } from '../helpers/package-consumer.js';

const run = promisify(execFile);
const mock = useMockServer();
// Mastra reports feature usage to its own servers from some code paths: not from these tests.
const { projectWith, runScenario, env } = useFrameworkConsumers('mastra', {
  files: ['mastra-scenario.mjs', 'mastra-cjs.cjs', 'mastra-model.mjs'],
  mock,
  extraEnv: { MASTRA_TELEMETRY_DISABLED: '1' },
});

const VERSIONS = {
  '@mastra/core 1.58.0': '@mastra/core@1.58.0',
  '@mastra/core 1': '@mastra/core@^1.71.0',
} as const;

/** The names of the projects the mock was asked to create. */
const createdNames = () =>
  mock.server.service.requestLog().map((request) => (request.body as { name?: string })?.name);

describe.each(Object.entries(VERSIONS))('agentchat/mastra with %s', (label, spec) => {
  it("runs the three tools in Mastra's loop: results, errors, approval, scope and abort", async () => {
    const folder = await projectWith([spec, 'zod@^4']);
    mock.server.service.enqueue({ kind: 'hang', path: '/v1/projects/proj_hang' });

    const result = await runScenario(folder, label);

    const [created, read, reply] = result.seen as Array<{ type: string; value: object }>;
    expect(created).toEqual({
      type: 'json',
      value: {
        id: expect.stringMatching(/^proj_/),
        name: `Launch ${label}`,
        status: 'active',
        createdAt: expect.any(String),
      },
    });
    expect(read).toMatchObject({ type: 'json', value: { agentId: 'agent_support', metadata: {} } });
    expect(reply).toEqual({
      type: 'json',
      value: { message: expect.any(String), suggestions: expect.any(Array) },
    });
    expect(result.text).toBe('Done.');
    expect(result.toolError).toEqual({
      // Older 1.x releases give the model the message as text, later ones as an error text.
      type: expect.stringMatching(/^(text|error-text)$/),
      value: expect.stringMatching(/No project with id "proj_missing" \(request id req_\w+\)$/),
    });
    expect(JSON.stringify(result.refused)).toMatch(/did you mean agentId/);
    expect(result.keyInPrompts).toBe(false);
    expect(result.approval).toEqual({
      finishReason: 'suspended',
      toolName: 'create_project',
      sentBeforeApproval: 0,
      afterApproval: 'Created.',
      sentAfterApproval: 1,
    });
    const names = createdNames();
    expect(names).toContain(`Launch ${label}`);
    expect(names.filter((name) => name === `Approved ${label}`)).toHaveLength(1);
    expect(names).not.toContain(`Refused ${label}`);
    expect(result.offered).toEqual([['get_project'], ['create_project', 'send_message']]);
    // The aborted call ends the run: the model is not asked again.
    expect(result.abortedAfterSteps).toBe(1);
    expect(result.requestSignalAborted).toEqual([true]);

    const cjs = await run(process.execPath, ['mastra-cjs.cjs', mock.server.baseUrl, label], {
      cwd: folder,
      env,
    });
    expect(JSON.parse(cjs.stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      text: 'Created.',
      created: {
        type: 'json',
        value: expect.objectContaining({ name: `CJS ${label}`, status: 'active' }),
      },
      refused: true,
    });
  }, 240_000);
});
