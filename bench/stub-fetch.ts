/**
 * A `fetch` that answers like the service at once, with no server, socket or HTTP stack behind it:
 * what is left to time is each client's own work. Installed as the global `fetch` rather than
 * passed as an option, so that every client runs its default path: the SDK, for one, arms an
 * extra race against the abort signal only for a `fetch` passed as an option.
 */

/** The project every stubbed `projects.get` and `chat.send` names. */
export const STUB_PROJECT_ID = 'proj_stub';

const PROJECT = {
  id: STUB_PROJECT_ID,
  name: 'Bench project',
  agentId: 'agent_bench',
  status: 'active',
  metadata: {},
  createdAt: '2026-11-01T00:00:00.000Z',
};
const CREATED = {
  id: STUB_PROJECT_ID,
  name: 'Bench',
  status: 'active',
  createdAt: PROJECT.createdAt,
};
const REPLY = { message: 'agent_bench: happy to help.', suggestions: ['Tell me more'] };

/** Answers like the service would, without a server: a fresh Response per call. */
export const stubFetch: typeof globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const [status, body] =
    method === 'GET' ? [200, PROJECT] : url.endsWith('/chat') ? [200, REPLY] : [201, CREATED];
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_stub' },
  });
};

/**
 * Makes {@link stubFetch} the global `fetch` until the returned function is called. Clients made
 * in between take it as their platform's fetch (the raw-fetch contender and openai-node capture it
 * when made; ky and the SDK look it up per call).
 */
export function installStubFetch(): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = stubFetch;
  return () => {
    globalThis.fetch = original;
  };
}
