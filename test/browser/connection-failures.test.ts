import { beforeEach, describe, expect, it } from 'vitest';
import { commands, server } from 'vitest/browser';
import { APIConnectionError, APITimeoutError, APIUserAbortError, Client } from '../../src/index.js';

// The mock HTTP server's commands are declared in mock-http-cors.test.ts.
let baseUrl: string;
beforeEach(async () => {
  // A fresh server for each test: no fault left over from the last one.
  ({ baseUrl } = await commands.startHttpMock({
    apiKeys: ['sk_page'],
    allowedOrigins: [location.origin],
  }));
  return () => commands.stopHttpMock();
});

function client(options: { timeout?: number } = {}) {
  return new Client({
    apiKey: 'sk_page',
    baseUrl,
    dangerouslyAllowBrowser: true,
    maxRetries: 1,
    ...options,
  });
}

/**
 * What each engine's fetch says when it gets no response, the one part of the SDK's message
 * that is the browser's: the class, the rest of the message and the retries are the SDK's own.
 */
const noResponseWords: Record<string, string> = {
  chromium: 'Failed to fetch',
  firefox: 'NetworkError when attempting to fetch resource.',
  MiniBrowser: 'Load failed',
};

describe(`a call that gets no answer, in ${server.browser}`, () => {
  it('rejects with APIConnectionError after its retries when the connection is refused', async () => {
    await commands.stopHttpMock();

    const error = await client()
      .projects.get('proj_any')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect((error as APIConnectionError).message).toBe(
      `GET /v1/projects/proj_any could not reach the service (${noResponseWords[server.browser]}) after 2 attempts`,
    );
    expect((error as APIConnectionError).attempts).toBe(2);
  });

  it('rejects with APIConnectionError after its retries when the server drops the connection', async () => {
    // The engines resend a request themselves when its connection drops before the answer:
    // Firefox up to 10 times (its network.http.request.max-attempts), Chromium once when the
    // connection was a reused one, WebKit not at all (measured: 20, 3 and 2 requests for the
    // SDK's 2 attempts). The server drops more than all of them, so every attempt fails.
    const drops = 24;
    await commands.enqueueOnHttpMock(
      Array.from({ length: drops }, () => ({ kind: 'network-error' })),
    );

    const error = await client()
      .projects.get('proj_any')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).message).toBe(
      `GET /v1/projects/proj_any could not reach the service (${noResponseWords[server.browser]}) after 2 attempts`,
    );
    // Drops were left over: the engine gave up on its own, not for want of a drop.
    expect((await commands.httpMockRequests()).length).toBeLessThan(drops);
  });

  it('rejects with APITimeoutError when every attempt outlasts its timeout', async () => {
    await commands.enqueueOnHttpMock([{ kind: 'hang' }, { kind: 'hang' }]);

    const error = await client({ timeout: 200 })
      .projects.get('proj_any')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as APITimeoutError).message).toBe(
      'GET /v1/projects/proj_any timed out (200 ms per attempt) after 2 attempts',
    );
  });

  it("rejects with APIUserAbortError carrying the caller's reason, and does not retry", async () => {
    // One hang only: a retry would be answered, with a NotFoundError.
    await commands.enqueueOnHttpMock([{ kind: 'hang' }]);
    const reason = new Error('The user left the page');

    // The caller gives up while the request hangs.
    const error = await client()
      .projects.get('proj_any', { signal: abortSoon(reason) })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).message).toBe('GET /v1/projects/proj_any was aborted');
    expect((error as APIUserAbortError).cause).toBe(reason);
  });
});

/** A signal that aborts with `reason` once the current test has had 100 ms to send its call. */
function abortSoon(reason: Error): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(reason), 100);
  return controller.signal;
}
