// Type-checked by test/package/types.test.ts beside usage.ts: the mock service. Its types build on
// msw's, which need the DOM library (msw's own requirement), so it is checked with `lib: ["dom"]`.
import { Client, NotFoundError } from 'agentchat';
import {
  createMockService,
  type Fault,
  type MockServer,
  type MockService,
  startMockServer,
} from 'agentchat/testing';

export async function usageOfTheMock(): Promise<number> {
  const mock: MockService = createMockService({ baseUrl: 'https://agentchat.test/api' });
  const fault: Fault = { kind: 'status', status: 503, headers: { 'retry-after': '0' } };
  mock.enqueue(fault);
  // @ts-expect-error a fault has a known kind
  mock.enqueue({ kind: 'explode' });

  const server: MockServer = await startMockServer({ port: 0, apiKeys: ['sk_test'] });
  const client = new Client({ apiKey: 'sk_test', baseUrl: server.baseUrl });
  const missing = await client.projects.get('proj_missing').catch((error: unknown) => error);
  await server.close();
  return missing instanceof NotFoundError ? mock.requests.length : -1;
}
