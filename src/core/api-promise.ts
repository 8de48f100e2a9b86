import { type Call, responseOf } from './call.js';
import { requestIdOf } from './redaction.js';

/**
 * A successful call's parsed body together with the raw response it came from.
 *
 * @example
 * ```ts
 * const { data, response, requestId } = await client.chat
 *   .send({ projectId: 'proj_123', message: 'Hello' })
 *   .withResponse();
 * console.log(data.message, response.status, requestId);
 * ```
 */
export interface WithResponse<T> {
  /** The parsed, validated body: what awaiting the call gives. */
  data: T;
  /** The HTTP response. Its body has already been read; its `text()` and `json()` give it again. */
  response: Response;
  /** The `x-request-id` the service gave the response, for support requests. */
  requestId: string | undefined;
}

/**
 * The promise every method returns: await it for the data, or call `.withResponse()` for the data,
 * the raw `Response` and the request id.
 *
 * @example
 * ```ts
 * const { data, requestId } = await client.projects.get('proj_123').withResponse();
 * ```
 */
export interface APIPromise<T> extends Promise<T> {
  /**
   * Resolves to the data together with the raw response and its request id.
   *
   * @throws the same errors as awaiting the call itself (an {@link AgentChatError} subclass).
   * @example
   * ```ts
   * const { data, response, requestId } = await client.projects
   *   .create({ name: 'Support', agentId: 'agent_42' })
   *   .withResponse();
   * console.log(data.id, response.status, requestId); // proj_… 201 req_…
   * ```
   */
  withResponse(): Promise<WithResponse<T>>;
}

/**
 * Wraps a call, which resolves once it has succeeded, so it can be awaited for the data or read
 * whole with `withResponse()`; the latter is built only when asked for.
 */
export function apiPromise<T>(call: Promise<Call>): APIPromise<T> {
  const data = call.then(dataOf) as APIPromise<T>;
  // A caller who only uses withResponse() never awaits `data`; its rejection must not surface as
  // an unhandled rejection (awaiting it still rejects as usual).
  data.catch(ignore);
  data.withResponse = () => call.then(withResponseOf) as Promise<WithResponse<T>>;
  return data;
}

function dataOf(call: Call): unknown {
  return call.data;
}

function withResponseOf(call: Call): WithResponse<unknown> {
  const response = responseOf(call);
  return { data: call.data, response, requestId: requestIdOf(response.headers, call.secrets) };
}

function ignore(): void {}
