/**
 * Random hostile servers over a real socket: any status (redirects included), any Retry-After,
 * request ids that are long, odd or echo the key, bodies of any size, depth and bytes, cut short,
 * gzip- or deflate-encoded, with a Content-Length that lies. Whatever they answer, a call ends in
 * the result or an AgentChatError, within maxRetries + 1 requests and its totalTimeout, holds no
 * more than maxResponseBytes of any body, and shows the key nowhere a user could print.
 * `PROPERTY_RUNS=500 npx vitest run test/reliability/hostile-servers.property.test.ts` searches
 * deeper.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import * as fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { AgentChatError, Client, RedirectError } from '../../src/index.js';
import { project, startHostileServer } from '../helpers/hostile-server.js';
import { leaksOf, propertyRuns, recordingLogger } from '../helpers/reliability.js';

const server = await startHostileServer();
afterAll(() => server.close());

/** Small, so that bodies past it are cheap to make; the property is the same at 10 MiB. */
const maxResponseBytes = 4096;
/** Short, so that a run which would wait for a backoff ends at once instead. */
const totalTimeout = 400;

const apiKey = fc.constantFrom('sk_live_9f8e7d6c5b4a3f2e1d0c', 'k9', 'sk_"quoted"\\slash');

type Body =
  | { kind: 'project' }
  | { kind: 'json'; value: unknown }
  | { kind: 'deep'; depth: number }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'zeros'; size: number }
  | { kind: 'echo' };

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({ kind: 'project' as const }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('text' as const), text: fc.string({ maxLength: 200 }) }),
  fc.record({
    kind: fc.constant('bytes' as const),
    bytes: fc.uint8Array({ maxLength: 300 }),
  }),
  fc.record({
    kind: fc.constant('zeros' as const),
    size: fc.integer({ min: 0, max: 4 * maxResponseBytes }),
  }),
  fc.constant({ kind: 'echo' as const }),
);

const answer = fc.record({
  status: fc.constantFrom(200, 201, 204, 301, 302, 303, 307, 308, 400, 401, 404, 408, 409, 422),
  otherStatus: fc.constantFrom(429, 431, 500, 502, 503),
  useOther: fc.boolean(),
  retryAfter: fc.option(
    fc.constantFrom('-1', '0', '1.5', 'soon', '1', 'Sun, 06 Nov 1994 08:49:37 GMT', '99999999'),
    { nil: undefined },
  ),
  retryAfterMs: fc.option(fc.constantFrom('0', '5', '-5', 'x', '120000'), { nil: undefined }),
  requestId: fc.option(
    fc.oneof(
      fc.constant('req_ok'),
      fc.constant('echo'),
      fc.string({ maxLength: 300 }),
      fc.constant('r'.repeat(5000)),
    ),
    { nil: undefined },
  ),
  encoding: fc.constantFrom(undefined, 'gzip', 'deflate'),
  lengthLies: fc.constantFrom(undefined, 'shorter', 'longer', 'huge'),
  truncate: fc.boolean(),
  body,
});
type Answer = typeof answer extends fc.Arbitrary<infer T> ? T : never;

function bodyBytes(body: Body, key: string): Buffer {
  switch (body.kind) {
    case 'project':
      return Buffer.from(JSON.stringify(project));
    case 'json':
      return Buffer.from(JSON.stringify(body.value) ?? 'null');
    case 'deep':
      return Buffer.from(`${'['.repeat(body.depth)}${']'.repeat(body.depth)}`);
    case 'text':
      return Buffer.from(body.text);
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'zeros':
      return Buffer.alloc(body.size, 0x30);
    case 'echo':
      return Buffer.from(
        JSON.stringify({ error: { message: `bad key ${key}`, key }, access_token: key }),
      );
  }
}

/** Answers as `answer` says; a Location always points back at this server, never followed. */
function respond(res: ServerResponse, spec: Answer, key: string): void {
  const status = spec.useOther ? spec.otherStatus : spec.status;
  let bytes = bodyBytes(spec.body, key);
  const headers: OutgoingHttpHeaders = { 'content-type': 'application/json' };
  if (status >= 300 && status < 400) headers.location = `${server.baseUrl}/elsewhere`;
  if (spec.retryAfter !== undefined) headers['retry-after'] = spec.retryAfter;
  if (spec.retryAfterMs !== undefined) headers['retry-after-ms'] = spec.retryAfterMs;
  if (spec.requestId !== undefined) {
    const id = spec.requestId === 'echo' ? `req_${key}` : spec.requestId;
    // Node refuses some characters in a header; a server that sends them is another test.
    if (/^[\t\x20-\x7e\x80-\xff]*$/.test(id)) headers['x-request-id'] = id;
  }
  headers['x-echo'] = key;
  if (spec.encoding === 'gzip') bytes = gzipSync(bytes);
  if (spec.encoding === 'deflate') bytes = deflateSync(bytes);
  if (spec.encoding) headers['content-encoding'] = spec.encoding;
  const length =
    spec.lengthLies === 'shorter'
      ? Math.max(0, bytes.length - 3)
      : spec.lengthLies === 'longer'
        ? bytes.length + 10
        : spec.lengthLies === 'huge'
          ? 1e9
          : bytes.length;
  if (status !== 204) headers['content-length'] = length;
  res.writeHead(status, headers);
  if (status === 204) {
    res.end();
    return;
  }
  if (spec.truncate && bytes.length > 1) {
    // Half the body, then the connection drops.
    res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
    return;
  }
  if (length < bytes.length) {
    res.end(bytes.subarray(0, length));
    return;
  }
  res.write(bytes);
  // A Content-Length longer than the body: the connection closes short of it.
  if (length > bytes.length) res.destroy();
  else res.end();
}

const runs = propertyRuns(60);
let runCount = 0;

it(
  'ends every call in the result or an AgentChatError, bounded, never showing the key',
  async () => {
    await fc.assert(
      fc.asyncProperty(
        apiKey,
        fc.array(answer, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('projects.get', 'chat.send', 'projects.create'),
        async (key, answers, maxRetries, operation) => {
          // A request of an earlier run, aborted by its deadline, may still arrive: count this
          // run's own, by a header only it sends.
          const run = String(++runCount);
          let requests = 0;
          server.answer((req, res) => {
            if (req.headers['x-run'] !== run) return res.destroy();
            const index = requests++;
            respond(res, answers[Math.min(index, answers.length - 1)] as Answer, key);
          });
          const logger = recordingLogger();
          const client = new Client({
            apiKey: key,
            baseUrl: server.baseUrl,
            maxRetries,
            headers: { 'x-run': run },
            totalTimeout,
            maxResponseBytes,
            logger,
            logLevel: 'debug',
          });
          const started = Date.now();
          const call =
            operation === 'projects.get'
              ? client.projects.get('proj_1')
              : operation === 'chat.send'
                ? client.chat.send({ projectId: 'proj_1', message: 'hi' })
                : client.projects.create({ name: 'n', agentId: 'a' });
          const outcome = await call.then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          );

          // Within the deadline (and a margin for a loaded machine, still far short of the
          // attempt's 60 s timeout and of any backoff), and the retries.
          expect(Date.now() - started).toBeLessThan(totalTimeout + 5_000);
          expect(requests).toBeLessThanOrEqual(maxRetries + 1);
          if (outcome.ok) {
            expect(JSON.stringify(outcome.value).length).toBeLessThanOrEqual(maxResponseBytes);
          } else {
            expect(outcome.error).toBeInstanceOf(AgentChatError);
            const { body } = outcome.error as { body?: unknown };
            if (typeof body === 'string') expect(body.length).toBeLessThanOrEqual(maxResponseBytes);
            expect((outcome.error as Error).message.length).toBeLessThanOrEqual(1000);
            if (outcome.error instanceof RedirectError) {
              // The call ended on the redirect: nothing was sent after it, nor to its Location.
              const last = answers[Math.min(requests - 1, answers.length - 1)] as Answer;
              expect(last.useOther ? last.otherStatus : last.status).toBe(outcome.error.status);
            }
            expect(leaksOf(outcome.error, key)).toEqual([]);
          }
          expect(logger.lines.filter((line) => line.text.includes(key))).toEqual([]);
        },
      ),
      { numRuns: runs },
    );
  },
  runs * 1000,
);
