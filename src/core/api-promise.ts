import { type Call, type HandOver, responseOf } from './call.js';
import { AgentChatError } from './errors/index.js';
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
 * The promise every method returns: await it for the data, call `.withResponse()` for the data,
 * the raw `Response` and the request id, or `.asResponse()` for the `Response` alone, its body
 * unread.
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

  /**
   * Resolves to the raw `Response` of a successful call as soon as its headers are in, its body
   * unread, for you to stream, save or parse yourself: the SDK neither reads, limits
   * (`maxResponseBytes`) nor validates it, and awaiting the call's data then rejects. Failures are
   * the same as ever: a non-2xx answer is read and thrown as its {@link APIError}, after the usual
   * retries. Ask for it in the same statement that makes the call (as below): asked later, once
   * the answer is in, the body has already been read, and the `Response`'s `text()` and `json()`
   * give it again.
   *
   * @throws the same errors as awaiting the call itself (an {@link AgentChatError} subclass).
   * @example
   * ```ts
   * const response = await client.projects.get('proj_123').asResponse();
   * console.log(response.status, response.headers.get('content-type'));
   * const project = await response.json();
   * ```
   */
  asResponse(): Promise<Response>;
}

/**
 * Wraps a call, which resolves once it has succeeded, so it can be awaited for the data or read
 * whole with `withResponse()`; the latter is built only when asked for. `asResponse()` marks
 * `handOver`, which the call reads when its answer comes.
 */
export function apiPromise<T>(call: Promise<Call>, handOver: HandOver): APIPromise<T> {
  const data = call.then(dataOf) as APIPromise<T>;
  // A caller who only uses withResponse() or asResponse() never awaits `data`; its rejection must
  // not surface as an unhandled rejection (awaiting it still rejects as usual).
  data.catch(ignore);
  data.withResponse = () => call.then(withResponseOf) as Promise<WithResponse<T>>;
  data.asResponse = () => {
    handOver.raw = true;
    return call.then(responseOf);
  };
  return data;
}

function dataOf(call: Call): unknown {
  if (call.unread) {
    throw new AgentChatError(
      `${call.endpoint.name}: the body was handed over unread by asResponse(); read it from the Response`,
    );
  }
  return call.data;
}

function withResponseOf(call: Call): WithResponse<unknown> {
  const response = responseOf(call);
  return { data: dataOf(call), response, requestId: requestIdOf(response.headers, call.secrets) };
}

function ignore(): void {}
