/**
 * agentchat/otel against the real OpenTelemetry SDK (sdk-trace's in-memory exporter, sdk-metrics,
 * the W3C propagator, the async-hooks context manager) and the mock service on 127.0.0.1.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, NotFoundError } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { parentOf, traceparentOf, useOpenTelemetry } from '../helpers/otel-sdk.js';

const apiKey = 'sk_test_0c4e8a2b6d1f3e5a';

const { exporter, instrumentation, named, durationPoints } = useOpenTelemetry();
let server: MockServer;
let client: Client;

beforeAll(async () => {
  server = await startMockServer({ apiKeys: [apiKey] });
  client = new Client({ apiKey, baseUrl: server.baseUrl });
});
afterEach(() => {
  server.service.reset();
  vi.unstubAllEnvs();
});
afterAll(() => server.close());

describe('AgentChatInstrumentation', () => {
  it("records a call span under the caller's active span, an attempt span under it, and sends its traceparent", async () => {
    const tracer = trace.getTracer('app');
    const project = await tracer.startActiveSpan('handle request', async (span) => {
      try {
        return await client.projects.create({ name: 'Traced', agentId: 'agent_1' });
      } finally {
        span.end();
      }
    });

    const [app] = named('handle request');
    const [call] = named('projects.create');
    const [attempt] = named('POST');
    expect(call?.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(call)).toBe(app?.spanContext().spanId);
    expect(call?.spanContext().traceId).toBe(app?.spanContext().traceId);
    expect(parentOf(attempt)).toBe(call?.spanContext().spanId);
    expect(attempt?.kind).toBe(SpanKind.CLIENT);

    const [logged] = server.service.requestLog();
    expect(call?.attributes).toEqual({
      'agentchat.operation': 'projects.create',
      'agentchat.request_id': logged?.requestId,
    });
    const { port } = new URL(server.baseUrl);
    expect(attempt?.attributes).toEqual({
      'http.request.method': 'POST',
      'url.full': `${server.baseUrl}/v1/projects`,
      'url.template': '/v1/projects',
      'server.address': '127.0.0.1',
      'server.port': Number(port),
      'http.response.status_code': 201,
    });
    expect(logged?.headers.traceparent).toBe(traceparentOf(attempt));
    expect(project.name).toBe('Traced');
  });

  it('records each attempt of a retried call, its failures marked, and one histogram point each', async () => {
    const before = (await durationPoints()).reduce((sum, point) => sum + point.value.count, 0);
    server.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });
    const { id } = await client.projects.create({ name: 'Retried', agentId: 'agent_1' });
    await client.projects.get(id);

    const [call] = named('projects.create');
    const posts = named('POST');
    expect(posts.map((span) => span.attributes['http.response.status_code'])).toEqual([503, 201]);
    expect(posts.map((span) => parentOf(span))).toEqual([
      call?.spanContext().spanId,
      call?.spanContext().spanId,
    ]);
    expect(posts[0]?.attributes['error.type']).toBe('503');
    expect(posts[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(posts[0]?.attributes['http.request.resend_count']).toBeUndefined();
    expect(posts[1]?.attributes['http.request.resend_count']).toBe(1);
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
    // Each attempt sent its own span's context.
    expect(server.service.requestLog().map((request) => request.headers.traceparent)).toEqual([
      traceparentOf(posts[0]),
      traceparentOf(posts[1]),
      traceparentOf(named('GET')[0]),
    ]);
    expect(named('GET')[0]?.attributes['url.template']).toBe('/v1/projects/{id}');

    const points = await durationPoints();
    const total = points.reduce((sum, point) => sum + point.value.count, 0);
    expect(total - before).toBe(3);
    const failed = points.find((point) => point.attributes['http.response.status_code'] === 503);
    expect(failed?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'url.template': '/v1/projects',
      'error.type': '503',
    });
    expect(failed?.attributes).not.toHaveProperty('url.full');
    expect(failed?.value.sum).toBeGreaterThan(0);
  });

  it('marks a failing call with its error class and a lost connection with the SDK error', async () => {
    server.service.enqueue({ kind: 'network-error' });
    const error = await client.projects
      .get('proj_missing', { maxRetries: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);

    const [call] = named('projects.get');
    expect(call?.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(call?.attributes['error.type']).toBe('NotFoundError');
    expect(call?.attributes['agentchat.request_id']).toBe((error as NotFoundError).requestId);
    const gets = named('GET');
    expect(gets.map((span) => span.attributes['error.type'])).toEqual([
      'APIConnectionError',
      '404',
    ]);
    expect(gets[0]?.attributes).not.toHaveProperty('http.response.status_code');
  });

  it('keeps a traceparent the caller put on the request', async () => {
    const own = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await client.projects.create(
      { name: 'Own context', agentId: 'agent_1' },
      { headers: { traceparent: own } },
    );
    expect(server.service.requestLog()[0]?.headers.traceparent).toBe(own);
    expect(named('POST')).toHaveLength(1);
  });

  it('follows the GenAI agent conventions on chat.send only when opted in, and records text only when allowed', async () => {
    const { id } = await client.projects.create({ name: 'Agent', agentId: 'agent_1' });
    await client.chat.send({ projectId: id, message: 'Plain' });
    expect(named('chat.send')).toHaveLength(1);
    expect(named('invoke_agent')).toEqual([]);

    vi.stubEnv('OTEL_SEMCONV_STABILITY_OPT_IN', 'http,gen_ai_latest_experimental');
    await client.chat.send({ projectId: id, message: 'Private words' });
    const [agent] = named('invoke_agent');
    expect(agent?.kind).toBe(SpanKind.CLIENT);
    expect(agent?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'agentchat',
      'gen_ai.conversation.id': id,
    });
    expect(JSON.stringify(agent?.attributes)).not.toContain('Private words');

    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'true');
    const reply = await client.chat.send({ projectId: id, message: 'Shared words' });
    const captured = named('invoke_agent')[1];
    expect(JSON.parse(String(captured?.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Shared words' }] },
    ]);
    expect(JSON.parse(String(captured?.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: reply.message }] },
    ]);
    expect(parentOf(named('POST').at(-1))).toBe(captured?.spanContext().spanId);
  });

  it('records nothing once disabled, and again once enabled', async () => {
    instrumentation.disable();
    try {
      await client.projects.create({ name: 'Quiet', agentId: 'agent_1' });
      expect(exporter.getFinishedSpans()).toEqual([]);
      expect(server.service.requestLog()[0]?.headers.traceparent).toBeUndefined();
    } finally {
      instrumentation.enable();
    }
    await client.projects.create({ name: 'Loud', agentId: 'agent_1' });
    expect(named('projects.create')).toHaveLength(1);
  });
});
