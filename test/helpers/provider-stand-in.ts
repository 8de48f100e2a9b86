/**
 * A stand-in of the model providers' HTTP APIs on 127.0.0.1, for running an agent framework
 * through the provider's own package (`@ai-sdk/openai`, `@langchain/anthropic`, the Agents SDK's
 * OpenAI model...) as users run it: OpenAI Chat Completions (`POST /v1/chat/completions`), OpenAI
 * Responses (`POST /v1/responses`) and Anthropic Messages (`POST /v1/messages`), each answered
 * whole or as server-sent events when the request asks to stream.
 *
 * It records every request and answers with the turns a test scripts: a tool call with given
 * arguments, then a final text. Like OpenAI, it refuses (400) a strict tool whose schema breaks
 * the strict-mode rules (every object closed with `additionalProperties: false`, every property
 * required), and it cuts a strict tool call's arguments to what the schema lets a model write.
 *
 * @example
 * ```ts
 * const provider = await startProviderStandIn();
 * provider.script(
 *   { toolCall: { name: 'get_project', arguments: { id: 'proj_1' } } },
 *   { text: 'Done.' },
 * );
 * const openai = createOpenAI({ apiKey: 'sk-test', baseURL: provider.baseUrl });
 * // ... run the agent, then:
 * provider.tools(provider.requests[0]); // [{ name: 'get_project', description, parameters, strict }]
 * provider.toolResults(provider.requests[1]); // [{ callId, text: '{"id":"proj_1",...}' }]
 * await provider.close();
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Which provider API a request spoke. */
export type ProviderApi = 'chat-completions' | 'responses' | 'messages';

/** One request the stand-in received. */
export interface ProviderRequest {
  readonly api: ProviderApi;
  /** Whether it asked for server-sent events. */
  readonly stream: boolean;
  readonly headers: IncomingMessage['headers'];
  /** The JSON body as sent. */
  // biome-ignore lint/suspicious/noExplicitAny: each API's body has its own shape
  readonly body: any;
}

/** What the model answers in one turn: a call of one tool, or a final text. */
export type ScriptedTurn =
  | { readonly toolCall: { readonly name: string; readonly arguments: Record<string, unknown> } }
  | { readonly text: string };

/** A turn, or one written from the request it answers (to use an earlier tool result). */
export type Turn = ScriptedTurn | ((request: ProviderRequest) => ScriptedTurn);

/** A tool as the provider received it, whichever API carried it. */
export interface ReceivedTool {
  readonly name: string;
  readonly description: string | undefined;
  /** Its JSON Schema (`parameters`, or Anthropic's `input_schema`). */
  readonly parameters: Record<string, unknown>;
  /** As sent: `true`, `false`, `null`, or `undefined` when absent. */
  readonly strict: boolean | null | undefined;
}

/** A tool result as the model's next request carried it, its content flattened to text. */
export interface ReceivedToolResult {
  readonly callId: string;
  readonly text: string;
  /** Anthropic's `is_error`; `undefined` on the OpenAI APIs, which have no such flag. */
  readonly isError: boolean | undefined;
}

/** A running stand-in. */
export interface ProviderStandIn {
  /**
   * `http://127.0.0.1:<port>/v1`: the `baseURL` of the `openai` client, `@ai-sdk/openai` and
   * `@ai-sdk/anthropic`. The `@anthropic-ai/sdk` client (`@langchain/anthropic`'s
   * `anthropicApiUrl`) adds `/v1` itself: give it this without `/v1`.
   */
  readonly baseUrl: string;
  /** Every request received since the last {@link ProviderStandIn.script}, in order. */
  readonly requests: readonly ProviderRequest[];
  /**
   * Sets the turns answered next, one per request, and forgets earlier requests and turns. A
   * request beyond the script is answered 400 (a status no client retries), naming the cause.
   */
  script(...turns: Turn[]): void;
  /** The tools `request` offered, in any of the three APIs. */
  tools(request: ProviderRequest | undefined): ReceivedTool[];
  /** The tool results `request` carried back to the model, in any of the three APIs. */
  toolResults(request: ProviderRequest | undefined): ReceivedToolResult[];
  close(): Promise<void>;
}

const API_OF_PATH: Readonly<Record<string, ProviderApi>> = {
  '/v1/chat/completions': 'chat-completions',
  '/v1/responses': 'responses',
  '/v1/messages': 'messages',
};

/**
 * Starts a stand-in on a free port of 127.0.0.1.
 *
 * @example
 * ```ts
 * const provider = await startProviderStandIn();
 * provider.script({ text: 'Hello.' });
 * const model = new ChatOpenAI({ model: 'gpt-5', configuration: { baseURL: provider.baseUrl } });
 * await model.invoke('hi');
 * expect(provider.requests[0]?.api).toBe('chat-completions');
 * ```
 */
export async function startProviderStandIn(): Promise<ProviderStandIn> {
  const requests: ProviderRequest[] = [];
  let turns: Turn[] = [];
  let answered = 0;

  const server = createServer(async (req, res) => {
    const api = API_OF_PATH[new URL(req.url ?? '/', 'http://x').pathname];
    if (req.method !== 'POST' || api === undefined) {
      return sendError(res, api ?? 'chat-completions', 404, `No route ${req.method} ${req.url}.`);
    }
    let body: ProviderRequest['body'];
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return sendError(res, api, 400, 'The body is not JSON.');
    }
    const request: ProviderRequest = {
      api,
      stream: body?.stream === true,
      headers: req.headers,
      body,
    };
    requests.push(request);
    const refusal = strictModeRefusal(api, body);
    if (refusal) return sendError(res, api, 400, refusal);
    const turn = turns[answered];
    if (turn === undefined) {
      return sendError(res, api, 400, `No scripted turn left for request ${requests.length}.`);
    }
    answered += 1;
    let scripted: ScriptedTurn;
    try {
      scripted = typeof turn === 'function' ? turn(request) : turn;
    } catch (error) {
      // The test reads the cause in the framework's error, not as an unhandled rejection.
      return sendError(res, api, 400, `The scripted turn ${answered} failed: ${String(error)}`);
    }
    const answer = withStrictArguments(scripted, request);
    const id = `${answered}_${Date.now().toString(36)}`;
    const model = String(body.model ?? 'stand-in');
    if (request.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [event, data] of STREAMS[api](answer, id, model)) {
        res.write(
          `${event ? `event: ${event}\n` : ''}data: ${data === DONE ? DONE : JSON.stringify(data)}\n\n`,
        );
      }
      return res.end();
    }
    sendJson(res, 200, WHOLE[api](answer, id, model));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...next) {
      turns = next;
      answered = 0;
      requests.length = 0;
    },
    tools: (request) => (request ? receivedTools(request) : []),
    toolResults: (request) => (request ? receivedToolResults(request) : []),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- Reading requests ----

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// biome-ignore lint/suspicious/noExplicitAny: wire shapes
type Json = any;

function receivedTools({ api, body }: ProviderRequest): ReceivedTool[] {
  const tools: Json[] = Array.isArray(body?.tools) ? body.tools : [];
  return tools.map((tool) => {
    if (api === 'messages') {
      return {
        name: tool.name,
        description: tool.description,
        parameters: tool.input_schema,
        strict: tool.strict,
      };
    }
    const fn = api === 'chat-completions' ? tool.function : tool;
    return {
      name: fn.name,
      description: fn.description,
      parameters: fn.parameters,
      strict: fn.strict,
    };
  });
}

function receivedToolResults({ api, body }: ProviderRequest): ReceivedToolResult[] {
  if (api === 'chat-completions') {
    return (body.messages as Json[])
      .filter((message) => message.role === 'tool')
      .map((message) => ({
        callId: message.tool_call_id,
        text: flattenText(message.content),
        isError: undefined,
      }));
  }
  if (api === 'responses') {
    const input: Json[] = Array.isArray(body.input) ? body.input : [];
    return input
      .filter((item) => item.type === 'function_call_output')
      .map((item) => ({
        callId: item.call_id,
        text: flattenText(item.output),
        isError: undefined,
      }));
  }
  return (body.messages as Json[])
    .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
    .filter((block: Json) => block.type === 'tool_result')
    .map((block: Json) => ({
      callId: block.tool_use_id,
      text: flattenText(block.content),
      isError: block.is_error,
    }));
}

/** A string, or the texts of an array of content parts joined. */
function flattenText(content: Json): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
  return JSON.stringify(content);
}

// ---- OpenAI's strict mode ----

/** Whether OpenAI holds `tool` to strict mode: `strict: true`, and on Responses `null` too. */
function isStrict(api: ProviderApi, tool: ReceivedTool): boolean {
  if (api === 'messages') return false;
  return tool.strict === true || (api === 'responses' && tool.strict === null);
}

/** OpenAI's 400 message for the first strict tool whose schema breaks the rules, if any. */
function strictModeRefusal(api: ProviderApi, body: Json): string | undefined {
  const request: ProviderRequest = { api, stream: false, headers: {}, body };
  for (const tool of receivedTools(request)) {
    if (!isStrict(api, tool)) continue;
    const broken = strictSchemaProblem(tool.parameters, []);
    if (broken) return `Invalid schema for function '${tool.name}': ${broken}`;
  }
  return undefined;
}

function strictSchemaProblem(schema: Json, context: string[]): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const where = `In context=(${context.map((part) => `'${part}'`).join(', ')})`;
  const isObject =
    schema.type === 'object' ||
    (Array.isArray(schema.type) && schema.type.includes('object')) ||
    'properties' in schema;
  if (isObject) {
    if (schema.additionalProperties !== false) {
      return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const keys = Object.keys(schema.properties ?? {});
    const required: unknown = schema.required;
    const missing = keys.filter((key) => !Array.isArray(required) || !required.includes(key));
    if (missing.length > 0) {
      return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`;
    }
    for (const key of keys) {
      const problem = strictSchemaProblem(schema.properties[key], [...context, 'properties', key]);
      if (problem) return problem;
    }
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (!Array.isArray(schema[keyword])) continue;
    for (const [index, branch] of (schema[keyword] as Json[]).entries()) {
      const problem = strictSchemaProblem(branch, [...context, keyword, String(index)]);
      if (problem) return problem;
    }
  }
  if (schema.items) return strictSchemaProblem(schema.items, [...context, 'items']);
  return undefined;
}

/**
 * A strict tool's call as OpenAI's constrained decoding lets a model write it: the fields a
 * closed object does not list are gone, whatever the script asked for.
 */
function withStrictArguments(turn: ScriptedTurn, request: ProviderRequest): ScriptedTurn {
  if (!('toolCall' in turn)) return turn;
  const tool = receivedTools(request).find(({ name }) => name === turn.toolCall.name);
  if (!tool || !isStrict(request.api, tool)) return turn;
  return {
    toolCall: {
      name: turn.toolCall.name,
      arguments: cutToSchema(turn.toolCall.arguments, tool.parameters) as Record<string, unknown>,
    },
  };
}

function cutToSchema(value: unknown, schema: Json): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if (typeof schema !== 'object' || schema === null) return value;
  const branch = [schema, ...(schema.anyOf ?? [])].find(
    (option: Json) => option?.properties || option?.additionalProperties === false,
  );
  if (branch?.additionalProperties !== false) return value;
  const properties = branch.properties ?? {};
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key in properties)
      .map(([key, field]) => [key, cutToSchema(field, properties[key])]),
  );
}

// ---- Writing answers ----

const DONE = '[DONE]';
type Event = readonly [event: string | undefined, data: Json];

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** An error in the API's own shape. */
function sendError(res: ServerResponse, api: ProviderApi, status: number, message: string): void {
  const body =
    api === 'messages'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : { error: { message, type: 'invalid_request_error', param: null, code: null } };
  sendJson(res, status, body);
}

const callId = (id: string) => `call_${id}`;
const argumentsText = (turn: ScriptedTurn) =>
  'toolCall' in turn ? JSON.stringify(turn.toolCall.arguments) : '';

const WHOLE: Readonly<
  Record<ProviderApi, (turn: ScriptedTurn, id: string, model: string) => Json>
> = {
  'chat-completions': (turn, id, model) => ({
    id: `chatcmpl_${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message:
          'toolCall' in turn
            ? {
                role: 'assistant',
                content: null,
                refusal: null,
                tool_calls: [
                  {
                    id: callId(id),
                    type: 'function',
                    function: { name: turn.toolCall.name, arguments: argumentsText(turn) },
                  },
                ],
              }
            : { role: 'assistant', content: turn.text, refusal: null },
        logprobs: null,
        finish_reason: 'toolCall' in turn ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  }),
  responses: (turn, id, model) => response(turn, id, model, 'completed'),
  messages: (turn, id, model) => ({
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [anthropicBlock(turn, id)],
    stop_reason: 'toolCall' in turn ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  }),
};

function responseItem(turn: ScriptedTurn, id: string): Json {
  return 'toolCall' in turn
    ? {
        type: 'function_call',
        id: `fc_${id}`,
        call_id: callId(id),
        name: turn.toolCall.name,
        arguments: argumentsText(turn),
        status: 'completed',
      }
    : {
        type: 'message',
        id: `msg_${id}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }],
      };
}

function response(turn: ScriptedTurn, id: string, model: string, status: string): Json {
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output: status === 'completed' ? [responseItem(turn, id)] : [],
    incomplete_details: null,
    error: null,
    parallel_tool_calls: true,
    tools: [],
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    },
  };
}

function anthropicBlock(turn: ScriptedTurn, id: string): Json {
  return 'toolCall' in turn
    ? {
        type: 'tool_use',
        id: `toolu_${id}`,
        name: turn.toolCall.name,
        input: turn.toolCall.arguments,
      }
    : { type: 'text', text: turn.text };
}

const STREAMS: Readonly<
  Record<ProviderApi, (turn: ScriptedTurn, id: string, model: string) => Event[]>
> = {
  'chat-completions': (turn, id, model) => {
    const chunk = (delta: Json, finish: string | null): Event => [
      undefined,
      {
        id: `chatcmpl_${id}`,
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      },
    ];
    const body: Event[] =
      'toolCall' in turn
        ? [
            chunk(
              {
                role: 'assistant',
                content: null,
                tool_calls: [
                  {
                    index: 0,
                    id: callId(id),
                    type: 'function',
                    function: { name: turn.toolCall.name, arguments: '' },
                  },
                ],
              },
              null,
            ),
            chunk(
              { tool_calls: [{ index: 0, function: { arguments: argumentsText(turn) } }] },
              null,
            ),
            chunk({}, 'tool_calls'),
          ]
        : [
            chunk({ role: 'assistant', content: '' }, null),
            chunk({ content: turn.text }, null),
            chunk({}, 'stop'),
          ];
    const usage: Event = [
      undefined,
      {
        id: `chatcmpl_${id}`,
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      },
    ];
    return [...body, usage, [undefined, DONE]];
  },
  responses: (turn, id, model) => {
    let sequence = 0;
    const event = (type: string, data: Json): Event => [
      type,
      { type, sequence_number: sequence++, ...data },
    ];
    const done = responseItem(turn, id);
    const itemId = done.id as string;
    const middle: Event[] =
      'toolCall' in turn
        ? [
            event('response.output_item.added', {
              output_index: 0,
              item: { ...done, arguments: '', status: 'in_progress' },
            }),
            event('response.function_call_arguments.delta', {
              item_id: itemId,
              output_index: 0,
              delta: done.arguments,
            }),
            event('response.function_call_arguments.done', {
              item_id: itemId,
              output_index: 0,
              arguments: done.arguments,
            }),
          ]
        : [
            event('response.output_item.added', {
              output_index: 0,
              item: { ...done, content: [], status: 'in_progress' },
            }),
            event('response.content_part.added', {
              item_id: itemId,
              output_index: 0,
              content_index: 0,
              part: { type: 'output_text', text: '', annotations: [] },
            }),
            event('response.output_text.delta', {
              item_id: itemId,
              output_index: 0,
              content_index: 0,
              delta: turn.text,
              logprobs: [],
            }),
            event('response.output_text.done', {
              item_id: itemId,
              output_index: 0,
              content_index: 0,
              text: turn.text,
              logprobs: [],
            }),
            event('response.content_part.done', {
              item_id: itemId,
              output_index: 0,
              content_index: 0,
              part: { type: 'output_text', text: turn.text, annotations: [] },
            }),
          ];
    return [
      event('response.created', { response: response(turn, id, model, 'in_progress') }),
      event('response.in_progress', { response: response(turn, id, model, 'in_progress') }),
      ...middle,
      event('response.output_item.done', { output_index: 0, item: done }),
      event('response.completed', { response: response(turn, id, model, 'completed') }),
    ];
  },
  messages: (turn, id, model) => {
    const event = (type: string, data: Json): Event => [type, { type, ...data }];
    const block = anthropicBlock(turn, id);
    return [
      event('message_start', {
        message: {
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }),
      event('content_block_start', {
        index: 0,
        content_block: 'toolCall' in turn ? { ...block, input: {} } : { type: 'text', text: '' },
      }),
      event('content_block_delta', {
        index: 0,
        delta:
          'toolCall' in turn
            ? { type: 'input_json_delta', partial_json: argumentsText(turn) }
            : { type: 'text_delta', text: turn.text },
      }),
      event('content_block_stop', { index: 0 }),
      event('message_delta', {
        delta: { stop_reason: 'toolCall' in turn ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      }),
      event('message_stop', {}),
    ];
  },
};

/**
 * One stand-in of the model providers' HTTP APIs per test file, started in the file's `beforeAll`
 * and closed in its `afterAll`. The returned stand-in passes every use on to the running one, so
 * a test reads and scripts it as it would the one {@link startProviderStandIn} returns.
 */
export function useProviderStandIn(): ProviderStandIn {
  let started: ProviderStandIn | undefined;
  const running = () => {
    if (started === undefined) {
      throw new Error('The provider stand-in starts in beforeAll: use it in a hook or a test.');
    }
    return started;
  };
  beforeAll(async () => {
    started = await startProviderStandIn();
  });
  afterAll(() => started?.close());
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    get requests() {
      return running().requests;
    },
    script: (...turns) => running().script(...turns),
    tools: (request) => running().tools(request),
    toolResults: (request) => running().toolResults(request),
    close: () => running().close(),
  };
}
