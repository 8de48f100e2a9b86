/**
 * Every example runs as a user would run it (tsx, `agentchat` imported by name, key and URL from
 * the environment) against the mock service on 127.0.0.1, and prints what its comments promise.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

const API_KEY = 'sk_example_7c1d9e';

let server: MockServer;
beforeAll(async () => {
  // Only this key is accepted, so the error-handling example's wrong key is refused (401).
  server = await startMockServer({ apiKeys: [API_KEY] });
});
beforeEach(() => server.service.reset());
afterAll(() => server?.close());

/** Runs an example in its own process, as `npx tsx <file> [...args]` would. */
function runExample(file: string, args: readonly string[] = []) {
  return runProcess(process.execPath, [...tsxLoader, file, ...args], {
    env: {
      ...process.env,
      AGENTCHAT_API_KEY: API_KEY,
      AGENTCHAT_BASE_URL: server.baseUrl,
      AGENTCHAT_LOG: '',
    },
  });
}

describe('examples', { timeout: 30_000 }, () => {
  it('quickstart creates a project, reads it back and chats with its agent', async () => {
    const { code, stdout, stderr } = await runExample('examples/quickstart.ts');

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [project] = server.service.projects();
    expect(project).toMatchObject({ name: 'Customer support', agentId: 'agent_support' });
    expect(stdout).toContain(`Created ${project?.id} (active)`);
    expect(stdout).toContain('Agent agent_support, metadata {"launchDate":"2026-12-01","tier":2}');
    expect(stdout).toMatch(/Agent: agent_support here\. You asked: "How do I reset my password\?"/);
    expect(stdout).toMatch(/\(request id req_\w+, quote it/);
  });

  it('error-handling explains each failure by its class', async () => {
    const { code, stdout, stderr } = await runExample('examples/error-handling.ts');

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'empty name and agent: fix the input: name must not be empty, agentId must not be empty',
    );
    expect(lines[1]).toMatch(/^unknown project: no such project \(request id req_\w+\)$/);
    expect(lines[2]).toBe('unknown API key: the API key was refused: check AGENTCHAT_API_KEY');
    expect(lines[3]).toMatch(/^service unreachable: GET \/v1\/projects\/proj_1 could not reach/);
    expect(JSON.parse(lines[4] ?? '')).toMatchObject({ name: 'NotFoundError', status: 404 });
    // Invalid input never reached the service; every request that did carried the key it knows.
    expect(server.service.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 404',
      'GET 401',
      'GET 404',
    ]);
  });

  it('retries-and-cancellation retries under one key, times out, and cancels', async () => {
    server.service.enqueue(
      { kind: 'status', status: 503, headers: { 'retry-after': '0' } }, // first create: retried
      { kind: 'delay', ms: 0 }, // its retry: answered normally
      { kind: 'delay', ms: 0 }, // the repeated create: replayed
      { kind: 'hang' }, // the chat with a 2 s timeout: never answered
    );

    const { code, stdout, stderr } = await runExample('examples/retries-and-cancellation.ts');

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/POST \/v1\/projects → 503 \(attempt 1\/4, \d+ ms\); retrying in 0 ms/);
    expect(stdout).toMatch(/1\. created proj_\w+ with Idempotency-Key onboarding-/);
    expect(stdout).toContain('repeated with the same key: same project');
    expect(stdout).toMatch(
      /2\. POST \/v1\/projects\/proj_\w+\/chat timed out \(2000 ms per attempt\) after 1 attempt/,
    );
    expect(stdout).toContain('3. answered before the deadline: Hello! agent_demo here.');
    expect(stdout).toMatch(
      /4\. POST \/v1\/projects\/proj_\w+\/chat was aborted \(reason: the user cancelled\)/,
    );

    const creates = server.service.requests.filter((r) => r.path.endsWith('/v1/projects'));
    expect(creates.map((r) => r.status)).toEqual([503, 201, 201]);
    expect(new Set(creates.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(server.service.projects()).toHaveLength(1);
    // The cancelled call was aborted before it was sent: two chats reached the service.
    expect(server.service.requests.filter((r) => r.path.endsWith('/chat'))).toHaveLength(2);
  });

  it('mcp-agent drives agentchat-mcp over stdio: tools, results and tool errors', async () => {
    // The server from source, started as `npx tsx src/mcp/bin.ts` would start it.
    const mcpServer = [process.execPath, ...tsxLoader, 'src/mcp/bin.ts'];
    const { code, stdout, stderr } = await runExample('examples/mcp-agent.ts', mcpServer);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'tool create_project (changes state): Creates a new project in the Project and Agent Chat service, bound to one AI agent.',
      'tool get_project (read-only): Reads one project by its id.',
      "tool send_message (changes state): Sends a text message to the AI agent of a project and returns the agent's answer: message (the reply text) and suggestions (follow-up prompts the agent proposes).",
    ]);
    const [project] = server.service.projects();
    expect(project).toMatchObject({ name: 'Onboarding assistant', metadata: { team: 'support' } });
    expect(lines[3]).toBe(
      `create_project: Created project ${project?.id} named "Onboarding assistant" (status active, created ${project?.createdAt}).`,
    );
    expect(lines[4]).toMatch(/^send_message: .*agent_onboarding.* Suggested follow-ups: - /);
    expect(lines[5]).toMatch(/^send_message: /);
    expect(lines[6]).toMatch(
      /^get_project \(tool error\): NotFoundError: GET \/v1\/projects\/proj_does_not_exist failed with status 404: .*\(request id req_\w+\)$/,
    );
    expect(lines[7]).toMatch(
      /^send_message \(tool error\): Input validation error: Invalid arguments for tool send_message: message: /,
    );
    // The refused call never reached the service.
    expect(server.service.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      'POST 201',
      'POST 200',
      'POST 200',
      'GET 404',
    ]);
  });
});
