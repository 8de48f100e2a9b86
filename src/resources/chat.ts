import type { APIPromise } from '../core/api-promise.js';
import type { Endpoint } from '../core/call.js';
import { type BodyRequestOptions, bodyRequestOptionsSchema } from '../core/options.js';
import { path } from '../core/path.js';
import type { Transport } from '../core/transport.js';
import {
  type ChatReply,
  type ChatSendParams,
  chatReplySchema,
  chatSendParamsSchema,
} from '../schemas.js';

const sendMessage: Endpoint<ChatSendParams, ChatReply> = {
  name: 'chat.send',
  method: 'POST',
  input: chatSendParamsSchema,
  // The project goes in the path; the body carries the message alone.
  path: ({ projectId }) => path`/v1/projects/${projectId}/chat`,
  body: ({ message }) => ({ message }),
  options: bodyRequestOptionsSchema,
  output: chatReplySchema,
};

/**
 * Chat with a project's agent: `client.chat`.
 *
 * @example
 * ```ts
 * const reply = await client.chat.send({ projectId: 'proj_123', message: 'Hello!' });
 * console.log(reply.message, reply.suggestions);
 * ```
 */
export class Chat {
  readonly #transport: Transport;

  /** @internal */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Sends a message to the agent of a project and returns its reply and suggestions.
   *
   * Retried safely: every attempt carries the same `Idempotency-Key`.
   *
   * @throws {@link NotFoundError} when there is no such project.
   * @throws {@link RequestValidationError} when `params` are invalid (nothing is sent).
   * @throws {@link APIError}, {@link APIConnectionError}, {@link APITimeoutError},
   * {@link APIUserAbortError} and {@link ResponseValidationError} as their names say.
   * @example
   * ```ts
   * const reply = await client.chat.send({ projectId: 'proj_123', message: 'What can you do?' });
   * console.log(reply.message, reply.suggestions);
   * ```
   */
  send(
    params: ChatSendParams,
    options?: BodyRequestOptions<ChatSendParams>,
  ): APIPromise<ChatReply> {
    return this.#transport.request(sendMessage, params, options);
  }
}
