/**
 * The sign-in front at start: `agentchat-mcp --http --upstream-issuer` (a child process) whose
 * upstream has nothing listening exits 1 naming the issuer and the cause, instead of serving; the
 * programmatic handler answers its first requests 503 and `/health` 503, saying what failed in
 * general words (never the issuer's address or its error, which the log has, once).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { createMcpHttpHandler } from '../../src/mcp/index.js';
import { freePort } from '../helpers/free-port.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

describe('the sign-in front whose upstream cannot be discovered', { timeout: 60_000 }, () => {
  it('agentchat-mcp exits 1 naming the issuer and the cause', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const result = await runProcess(
      process.execPath,
      [
        ...tsxLoader,
        'src/mcp/bin.ts',
        '--http',
        '--port',
        '0',
        '--upstream-issuer',
        nowhere,
        '--upstream-client-id',
        'front-app',
      ],
      {
        cwd: repo,
        env: {
          PATH: process.env.PATH,
          AGENTCHAT_BASE_URL: 'http://127.0.0.1:9/api',
          AGENTCHAT_API_KEY: 'sk_front_start_5e0a',
        },
        timeoutMs: 30_000,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${nowhere} could not be discovered`);
    expect(result.stderr).toMatch(/ECONNREFUSED/);
    // Told once: by the error the start stops with, not by a warning as well.
    expect(result.stderr.split('could not be discovered')).toHaveLength(2);
    expect(result.stderr).not.toMatch(/serving MCP|people sign in at|\n\s+at /);
  });

  it('the handler answers 503 in general words, and /health 503, the cause in the log', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const warnings: string[] = [];
    const handler = createMcpHttpHandler({
      client: new Client({ apiKey: 'sk_front_start_5e0a', baseUrl: 'http://127.0.0.1:9/api' }),
      resource: 'http://127.0.0.1:8787/mcp',
      upstreamIssuer: nowhere,
      upstreamClientId: 'front-app',
      logger: {
        error: () => {},
        warn: (message: string) => warnings.push(message),
        info: () => {},
        debug: () => {},
      },
    });
    try {
      const health = await handler.fetch(new Request('http://127.0.0.1:8787/health'));
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toBe('5');
      const answers = [await health.text()];
      expect(JSON.parse(answers[0] as string)).toEqual({
        status: 'unavailable',
        problem: 'the identity provider cannot be reached',
      });
      for (const path of ['/.well-known/oauth-authorization-server', '/register', '/authorize']) {
        const answer = await handler.fetch(new Request(`http://127.0.0.1:8787${path}`));
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        const text = await answer.text();
        answers.push(text);
        expect(JSON.parse(text)).toMatchObject({
          error: 'temporarily_unavailable',
          error_description: expect.stringContaining('the identity provider cannot be reached'),
        });
      }
      // Not where it is, nor what the connection said.
      const { host, port } = new URL(nowhere);
      for (const answer of answers) {
        for (const detail of [host, `:${port}`, 'ECONNREFUSED', 'discovered', 'fetch failed']) {
          expect(answer).not.toContain(detail);
        }
      }
      // The log has it, once, not once per request.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`${nowhere} could not be discovered`);
      expect(warnings[0]).toMatch(/ECONNREFUSED/);
    } finally {
      await handler.close();
    }
  });
});
