import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { Client, NotFoundError, RateLimitError } from '../../src/index.js';
import type { Fault, MockServerOptions } from '../../src/testing/index.js';

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** http-mock-commands.ts: the mock HTTP server, started in Node on a port of its own. */
    startHttpMock(options: MockServerOptions): Promise<{ baseUrl: string }>;
    enqueueOnHttpMock(faults: Fault[]): Promise<void>;
    httpMockRequests(): Promise<{ method: string; path: string; status?: number }[]>;
    stopHttpMock(): Promise<void>;
  }
}

let baseUrl: string;
beforeAll(async () => {
  ({ baseUrl } = await commands.startHttpMock({
    apiKeys: ['sk_page'],
    allowedOrigins: [location.origin],
  }));
});
afterAll(() => commands.stopHttpMock());

describe('the mock HTTP server, called by a page on another origin', () => {
  it('passes the preflights and lets the SDK read its answers and their request ids', async () => {
    expect(new URL(baseUrl).origin).not.toBe(location.origin);
    const client = new Client({ apiKey: 'sk_page', baseUrl, dangerouslyAllowBrowser: true });

    const { data: created, requestId } = await client.projects
      .create({ name: 'Cross-origin', agentId: 'agent_web' }, { idempotencyKey: 'page-1' })
      .withResponse();
    const reply = await client.chat.send({ projectId: created.id, message: 'Hello' });
    const missing = await client.projects.get('proj_missing').catch((error: unknown) => error);

    expect(requestId).toMatch(/^req_/);
    expect(reply.message).toContain('agent_web');
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).requestId).toMatch(/^req_/);
    // Preflights are answered, never logged: the log holds the three calls alone.
    expect((await commands.httpMockRequests()).map((request) => request.status)).toEqual([
      201, 200, 404,
    ]);
  });

  it('exposes Retry-After to the page', async () => {
    await commands.enqueueOnHttpMock([
      { kind: 'status', status: 429, headers: { 'retry-after': '120' } },
    ]);
    const client = new Client({ apiKey: 'sk_page', baseUrl, dangerouslyAllowBrowser: true });

    const error = await client.projects.get('proj_any').catch((caught: unknown) => caught);

    // Read from the header: a wait over 60 s is not slept, the error carries it.
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(120_000);
  });
});
