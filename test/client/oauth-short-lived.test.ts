/**
 * A token that lives 2 seconds works as well as one that lives an hour: refreshed at half its
 * life rather than 5 minutes ahead (which would be before it was issued, for ever).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Client, clientCredentials } from '../../src/index.js';
import { useMockService } from '../helpers/use-mock-service.js';

const credentials = { clientId: 'kiosk', clientSecret: 'kiosk-secret' };
const { mock } = useMockService({ oauthClients: [credentials], tokenLifetimeMs: 2_000 });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

it('refreshes a 2-second token after 1 second, once, and never sends it expired', async () => {
  const apiKey = clientCredentials({ tokenUrl: `${mock.baseUrl}/oauth/token`, ...credentials });
  const client = new Client({ apiKey, baseUrl: mock.baseUrl });
  const get = () => client.projects.create({ name: 'P', agentId: 'a' });
  const tokenRequests = () => mock.requestLog().filter((r) => r.path.endsWith('/oauth/token'));

  await get();
  vi.advanceTimersByTime(999);
  await get();
  expect(tokenRequests()).toHaveLength(1);

  vi.advanceTimersByTime(1);
  await get();
  await vi.runAllTimersAsync();
  expect(tokenRequests()).toHaveLength(2);
  for (let i = 0; i < 5; i++) await get();
  expect(tokenRequests()).toHaveLength(2);

  // Every call went out with a token the service still accepted.
  for (let second = 0; second < 6; second++) {
    vi.advanceTimersByTime(1_000);
    await get();
  }
  const calls = mock.requestLog().filter((r) => !r.path.endsWith('/oauth/token'));
  expect(calls.every((r) => r.status === 201)).toBe(true);
  expect(calls).toHaveLength(14);
});
