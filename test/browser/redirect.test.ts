/**
 * A redirect in a real browser: with `redirect: 'manual'` every engine (Chromium, Firefox, WebKit)
 * hands the page an `opaqueredirect` response (status 0, no headers) instead of following it. The call ends with the
 * same RedirectError as in Node, unretried, and nothing is sent to the Location.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { APIError, Client, RedirectError } from '../../src/index.js';

let baseUrl: string;
beforeAll(async () => {
  ({ baseUrl } = await commands.startHttpMock({
    apiKeys: ['sk_page'],
    allowedOrigins: [location.origin],
  }));
});
afterAll(() => commands.stopHttpMock());

it('ends a call redirected by the service with RedirectError, following nothing', async () => {
  await commands.enqueueOnHttpMock([
    {
      kind: 'status',
      status: 307,
      headers: { location: `${baseUrl}/v1/projects/proj_elsewhere` },
    },
  ]);
  const client = new Client({ apiKey: 'sk_page', baseUrl, dangerouslyAllowBrowser: true });

  const error = await client.projects.get('proj_moved').catch((e: unknown) => e);

  expect(error).toBeInstanceOf(RedirectError);
  expect(error).toBeInstanceOf(APIError);
  // The page may not read a redirect's status or Location.
  expect(error).toMatchObject({ status: 0, location: undefined });
  expect((error as Error).message).toContain('set baseUrl to the final address');
  // One request, the redirected one: not retried (maxRetries is 2), the Location never asked.
  expect(await commands.httpMockRequests()).toEqual([
    { method: 'GET', path: '/api/v1/projects/proj_moved', status: 307 },
  ]);
});
