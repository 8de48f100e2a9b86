import { getResponse } from 'msw';
import type { MockService } from '../../src/testing/index.js';

// Requests handed straight to the handlers (msw's getResponse): no interception, so fake timers
// and exact control over headers are possible. The network ways are in the shared scenarios.

/** A request to the mock, as `send` builds it. */
export interface SendOptions {
  method?: string;
  /** JSON-encoded. */
  body?: unknown;
  /** Sent as is. */
  raw?: string;
  /** The `Authorization` header; `null` sends none. */
  authorization?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The mock's answer to one request below its base URL. */
export async function send(
  mock: MockService,
  path: string,
  options: SendOptions = {},
): Promise<Response> {
  const { method = 'GET', body, raw, authorization = 'Bearer sk_unit', headers, signal } = options;
  const init: RequestInit = {
    method,
    headers: { ...(authorization === null ? {} : { authorization }), ...headers },
  };
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) init.body = JSON.stringify(body);
  if (signal) init.signal = signal;
  const response = await getResponse(
    [...mock.handlers],
    new Request(`${mock.baseUrl}${path}`, init),
  );
  if (!response) throw new Error(`no handler answered ${method} ${path}`);
  return response;
}

/** The body of a project create. */
export const demo = { name: 'Demo', agentId: 'agent_1' };

/** `POST /v1/projects` with {@link demo} unless told otherwise. */
export const create = (mock: MockService, options: SendOptions = {}) =>
  send(mock, '/v1/projects', { method: 'POST', body: demo, ...options });

/** The `error` object of a standard error body. */
export async function errorOf(response: Response) {
  return ((await response.json()) as { error: { type: string; message: string } }).error;
}
