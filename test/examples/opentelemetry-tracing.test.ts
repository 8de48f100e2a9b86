/**
 * The tracing middleware of examples/opentelemetry-tracing.ts, in process: the real OpenTelemetry
 * SDK with an in-memory exporter, the real client, the mock service on a real port.
 */

import { readFile } from 'node:fs/promises';
import { context, propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tracing } from '../../examples/opentelemetry-tracing.js';
import {
  APIConnectionError,
  APITimeoutError,
  Client,
  type ClientOptions,
  NotFoundError,
} from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

const API_KEY = 'sk_tracing_3e8b1f';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('agentchat-test');
let mock: MockServer;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  mock = await startMockServer({ apiKeys: [API_KEY] });
});
afterEach(() => {
  exporter.reset();
  mock.service.reset();
});
afterAll(async () => {
  await mock?.close();
  await provider.shutdown();
  context.disable();
  propagation.disable();
});

function tracedClient(options: ClientOptions = {}): Client {
  return new Client({
    apiKey: API_KEY,
    baseUrl: mock.baseUrl,
    middleware: [tracing(tracer)],
    ...options,
  });
}

/** The spans of the attempts, oldest first (the application's own spans left out). */
function attemptSpans(): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
}

/** What a span in the service's `traceparent` header looks like. */
function traceparentOf(span: ReadableSpan): string {
  const { traceId, spanId } = span.spanContext();
  return `00-${traceId}-${spanId}-01`;
}

describe('tracing middleware', () => {
  it('gives each attempt of a retried call its own CLIENT span with the HTTP attributes', async () => {
    mock.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } });

    await tracedClient().projects.create({ name: 'Support', agentId: 'agent_support' });

    const port = Number(new URL(mock.url).port);
    const [first, retry, ...more] = attemptSpans();
    expect(more).toEqual([]);
    expect(first?.name).toBe('POST');
    expect(first?.status.code).toBe(SpanStatusCode.ERROR);
    expect(first?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `${mock.baseUrl}/v1/projects`,
      'agentchat.operation': 'projects.create',
      'http.response.status_code': 503,
      'http.response.header.x-request-id': [expect.stringMatching(/^req_\w+$/)],
      'error.type': '503',
    });
    expect(retry?.name).toBe('POST');
    expect(retry?.status.code).toBe(SpanStatusCode.UNSET);
    expect(retry?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `${mock.baseUrl}/v1/projects`,
      'agentchat.operation': 'projects.create',
      'http.request.resend_count': 1,
      'http.response.status_code': 201,
      'http.response.header.x-request-id': [expect.stringMatching(/^req_\w+$/)],
    });
    // The request id recorded is the one the service answered with.
    expect(first?.attributes['http.response.header.x-request-id']).not.toEqual(
      retry?.attributes['http.response.header.x-request-id'],
    );
  });

  it('makes the attempts children of the active span and sends each one in traceparent', async () => {
    mock.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } });

    const parent = await tracer.startActiveSpan('onboard customer', async (span) => {
      await tracedClient().projects.create({ name: 'Support', agentId: 'agent_support' });
      span.end();
      return span.spanContext();
    });

    const attempts = attemptSpans();
    expect(attempts).toHaveLength(2);
    for (const span of attempts) {
      expect(span.spanContext().traceId).toBe(parent.traceId);
      expect(span.parentSpanContext?.spanId).toBe(parent.spanId);
    }
    expect(mock.service.requests.map((request) => request.headers.traceparent)).toEqual(
      attempts.map(traceparentOf),
    );
    // Both attempts are still one call to the service: the same Idempotency-Key.
    expect(new Set(mock.service.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('starts a trace of its own when no span is active', async () => {
    await tracedClient()
      .projects.get('proj_none')
      .catch(() => {});

    const [span] = attemptSpans();
    expect(span?.parentSpanContext).toBeUndefined();
    expect(mock.service.requests[0]?.headers.traceparent).toBe(traceparentOf(span as ReadableSpan));
  });

  it('records a 404 as one failed span: not retried, the path as sent', async () => {
    const failure = await tracedClient()
      .projects.get('proj 1/2')
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(NotFoundError);
    const spans = attemptSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]?.name).toBe('GET');
    expect(spans[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans[0]?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.full': `${mock.baseUrl}/v1/projects/proj%201%2F2`,
      'agentchat.operation': 'projects.get',
      'http.response.status_code': 404,
      'error.type': '404',
    });
    expect(spans[0]?.attributes).not.toHaveProperty('http.request.resend_count');
  });

  it('names the error of an attempt that got no response', async () => {
    mock.service.enqueue({ kind: 'network-error' });

    const failure = await tracedClient({ maxRetries: 0 })
      .projects.get('proj_1')
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(APIConnectionError);
    const [span] = attemptSpans();
    expect(span?.attributes['error.type']).toBe('TypeError');
    expect(span?.attributes).not.toHaveProperty('http.response.status_code');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'fetch failed' });
    expect(span?.ended).toBe(true);
  });

  it('ends the span of an attempt that timed out', async () => {
    mock.service.enqueue({ kind: 'hang' });

    const failure = await tracedClient({ maxRetries: 0, timeout: 50 })
      .projects.get('proj_1')
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(APITimeoutError);
    const [span] = attemptSpans();
    expect(span?.ended).toBe(true);
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    // The timeout aborts the attempt's request, so fetch rejects with an AbortError.
    expect(span?.attributes['error.type']).toBe('AbortError');
  });

  it('traces the replay after a 401 as a resend', async () => {
    const keys = ['sk_tracing_revoked', API_KEY];
    const client = tracedClient({ apiKey: () => keys.shift() ?? API_KEY });

    await client.projects.create({ name: 'Support', agentId: 'agent_support' });

    const spans = attemptSpans();
    expect(spans.map((span) => span.attributes['http.response.status_code'])).toEqual([401, 201]);
    expect(spans.map((span) => span.attributes['http.request.resend_count'])).toEqual([
      undefined,
      1,
    ]);
    expect(spans[0]?.attributes['error.type']).toBe('401');
    // No key, refused or accepted, is recorded anywhere in a span.
    const recorded = JSON.stringify(
      spans.map(({ name, attributes, status }) => ({ name, attributes, status })),
    );
    expect(recorded).not.toContain('sk_tracing');
    expect(recorded).not.toMatch(/bearer/i);
  });

  it('traces one call when given as a per-call middleware', async () => {
    const client = new Client({ apiKey: API_KEY, baseUrl: mock.baseUrl });
    const project = await client.projects.create({ name: 'Support', agentId: 'agent_support' });

    await client.chat.send(
      { projectId: project.id, message: 'Hello' },
      { middleware: [tracing(tracer)] },
    );

    const spans = attemptSpans();
    expect(spans.map((span) => span.attributes['agentchat.operation'])).toEqual(['chat.send']);
    expect(spans[0]?.attributes['url.full']).toBe(`${mock.baseUrl}/v1/projects/${project.id}/chat`);
  });

  it('is shown in docs/observability.md exactly as in the example', async () => {
    const source = await readFile(
      new URL('../../examples/opentelemetry-tracing.ts', import.meta.url),
      'utf8',
    );
    const guide = await readFile(new URL('../../docs/observability.md', import.meta.url), 'utf8');
    // The guide shows the module from its imports on; the file's opening comment is its own.
    const code = source.slice(source.indexOf('import {'));
    const fence = '```';
    expect(guide).toContain(`\n${fence}ts\n${code}${fence}\n`);
  });
});
