/**
 * agentchat/langchain from the packed tarball, installed beside only LangChain, at both ends of
 * the range it supports (@langchain/core 1.0.1, the first LangGraph's agents take, with the first
 * langchain 1.x; the latest of both):
 * consumer/langchain-scenario.mjs runs createAgent's loop with a scripted model against the mock
 * service, and this test holds the one request it must abort.
 */
import { describe, expect, it } from 'vitest';
import { useFrameworkConsumers } from '../helpers/framework-consumer.js';
import { useMockServer } from '../helpers/package-consumer.js';

const mock = useMockServer();
const { projectWith, runScenario } = useFrameworkConsumers('langchain', {
  files: ['langchain-scenario.mjs', 'langchain-model.mjs'],
  mock,
});

/**
 * Each end of the range: `@langchain/core`, and the `langchain` (with its LangGraph) beside it. At
 * the first end LangGraph's checkpoint package is pinned too: its newest 1.x, which npm would pick,
 * needs a newer @langchain/core.
 */
const VERSIONS = {
  'core 1.0.1': [
    '@langchain/core@1.0.1',
    'langchain@1.0.1',
    '@langchain/langgraph@1.0.0',
    '@langchain/langgraph-checkpoint@1.0.1',
  ],
  'core 1 latest': ['@langchain/core@^1.4.0', 'langchain@^1.5.0', '@langchain/langgraph@^1.7.0'],
} as const;

describe.each(Object.entries(VERSIONS))('agentchat/langchain with %s', (label, specs) => {
  it("runs the three tools in createAgent's loop: results, errors, approval, scope, CJS and abort", async () => {
    const folder = await projectWith(specs);
    mock.server.service.enqueue({ kind: 'hang', path: '/v1/projects/proj_hang' });

    const result = await runScenario(folder, label);

    const [created, read, reply] = result.seen as Array<Record<string, unknown>>;
    expect(created).toEqual({
      name: 'create_project',
      status: 'success',
      value: {
        id: expect.stringMatching(/^proj_/),
        name: `Launch ${label}`,
        status: 'active',
        createdAt: expect.any(String),
      },
      artifactIsValue: true,
    });
    expect(read).toMatchObject({
      name: 'get_project',
      status: 'success',
      value: { agentId: 'agent_support', metadata: {} },
      artifactIsValue: true,
    });
    expect(reply).toEqual({
      name: 'send_message',
      status: 'success',
      value: { message: expect.any(String), suggestions: expect.any(Array) },
      artifactIsValue: true,
    });
    expect(result.text).toBe('Done.');

    const [missing, refused] = result.errors as Array<Record<string, string>>;
    expect(missing).toEqual({
      name: 'get_project',
      status: 'error',
      text: expect.stringMatching(
        /^NotFoundError: .*No project with id "proj_missing".*\(request id req_\w+\)$/,
      ),
    });
    // LangChain's own refusal of arguments outside the schema: langchain 1.0 gives it no status.
    expect(refused).toMatchObject({ name: 'create_project' });
    expect(refused?.text).toMatch(/did not match expected schema/);
    expect(result.keyInMessages).toBe(false);

    expect(result.approvalRequests).toEqual(['create_project']);
    expect(result.sentWhileWaiting).toBe(0);
    expect(result.afterApproval).toBe('Created.');
    const names = mock.server.service.requestLog().map((r) => (r.body as { name?: string })?.name);
    expect(names).toContain(`Approved ${label}`);
    expect(names).not.toContain(`Refused ${label}`);

    expect(result.offered).toEqual([['get_project'], ['create_project', 'send_message']]);
    expect(result.cjs).toEqual({ differentModule: true, toolMessage: true, status: 'error' });
    expect(result.aborted).toBe('the user moved on');
    expect(result.requestSignalAborted).toEqual([true]);
  }, 240_000);
});
