import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentChatError,
  Client,
  clientCredentials,
  NotFoundError,
  RequestValidationError,
} from '../../src/index.js';
import { useWorkerMock } from '../helpers/use-worker-mock.js';

const apiKey = 'sk_test_browser_client';
const service = useWorkerMock({ apiKeys: [apiKey] });
afterEach(() => service.reset());

/** Headers of every request the client hands to fetch, before the browser adds its own. */
function recordingFetch(sent: Headers[]): typeof fetch {
  return (input, init) => {
    // Read, not cloned: constructing a Request from one with a body would use the body up.
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
    sent.push(headers);
    return fetch(input, init);
  };
}

describe('Client in a browser', () => {
  it('refuses to be constructed without dangerouslyAllowBrowser, and sends nothing', () => {
    const construct = () => new Client({ apiKey, baseUrl: service.baseUrl });
    expect(construct).toThrow(AgentChatError);
    expect(construct).toThrow(/dangerouslyAllowBrowser/);
    expect(
      () => new Client({ apiKey, baseUrl: service.baseUrl, dangerouslyAllowBrowser: false }),
    ).toThrow(AgentChatError);
    expect(service.requestLog()).toEqual([]);
  });

  it('refuses OAuth client credentials the same way: a client secret in a page is public', async () => {
    const apiKey = clientCredentials({
      tokenUrl: `${service.baseUrl}/oauth/token`,
      clientId: 'web',
      clientSecret: 'web-secret',
    });
    const construct = () => new Client({ apiKey, baseUrl: service.baseUrl });
    expect(construct).toThrow(/dangerouslyAllowBrowser/);
    expect(service.requestLog()).toEqual([]);
  });

  it('creates a project, reads it back and chats through the service worker', async () => {
    const client = new Client({ apiKey, baseUrl: service.baseUrl, dangerouslyAllowBrowser: true });

    const created = await client.projects.create({ name: 'In the browser', agentId: 'agent_web' });
    const project = await client.projects.get(created.id);
    const reply = await client.chat.send({ projectId: created.id, message: 'Hello' });

    expect(project).toMatchObject({ id: created.id, name: 'In the browser', agentId: 'agent_web' });
    expect(reply.message).toBe('Hello! agent_web here. How can I help with your project today?');
    expect(service.projects()).toHaveLength(1);
    // The requests went through msw's service worker, not an in-page interceptor.
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(
      `${location.origin}/mockServiceWorker.js`,
    );
  });

  it('sends no User-Agent of its own: browsers own that header', async () => {
    const sent: Headers[] = [];
    const client = new Client({
      apiKey,
      baseUrl: service.baseUrl,
      dangerouslyAllowBrowser: true,
      fetch: recordingFetch(sent),
    });

    await client.projects.create({ name: 'UA', agentId: 'agent_web' });

    expect(sent).toHaveLength(1);
    expect(sent[0]?.get('user-agent')).toBeNull();
    expect(sent[0]?.get('authorization')).toBe(`Bearer ${apiKey}`);
    expect(service.requestLog()[0]?.headers['user-agent'] ?? '').not.toMatch(/agentchat-js/);
  });

  it('rejects with typed errors: NotFoundError from the service, RequestValidationError before it', async () => {
    const client = new Client({ apiKey, baseUrl: service.baseUrl, dangerouslyAllowBrowser: true });

    const notFound = await client.projects.get('proj_missing').catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, name: 'NotFoundError' });

    const invalid = await client.chat
      .send({ projectId: '', message: 'Hi' })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(RequestValidationError);
    expect((invalid as RequestValidationError).issues.map((issue) => issue.path)).toEqual([
      'projectId',
    ]);
    // Only the first call reached the service; the invalid one sent nothing.
    expect(service.requestLog()).toHaveLength(1);
  });
});
