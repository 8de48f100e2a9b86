import { describe, expect, it } from 'vitest';
import { useWorkerMock } from '../helpers/use-worker-mock.js';

// A mock under another origin than the page's, served by msw's service worker.
const service = useWorkerMock({ baseUrl: 'https://agentchat.test/api', apiKeys: ['sk_web'] });

describe('mock service for another origin, in the service worker', () => {
  it('answers the page without a preflight, every header readable', async () => {
    expect(new URL(service.baseUrl).origin).not.toBe(location.origin);

    const response = await fetch(`${service.baseUrl}/v1/projects`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_web',
        'content-type': 'application/json',
        'idempotency-key': 'cross-origin-1',
      },
      body: JSON.stringify({ name: 'Elsewhere', agentId: 'agent_web' }),
    });
    const replay = await fetch(`${service.baseUrl}/v1/projects`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_web', 'idempotency-key': 'cross-origin-1' },
      body: JSON.stringify({ name: 'Elsewhere', agentId: 'agent_web' }),
    });

    // The worker's answers are the page's own responses: CORS does not apply to them.
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(service.requestLog().map((request) => request.method)).toEqual(['POST', 'POST']);
  });
});
