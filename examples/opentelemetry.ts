/**
 * OpenTelemetry: a span for every attempt of a call, retries included, and the trace carried to
 * the service in a `traceparent` header.
 *
 *   npx tsx examples/opentelemetry.ts
 *
 * It starts the mock service on 127.0.0.1 and has it answer the first attempt with a 503, so the
 * call is retried; then it prints the spans the in-memory exporter collected and the
 * `traceparent` each attempt carried. In your application, register the SDK once at start-up
 * (or use `@opentelemetry/sdk-node`) with an exporter to your collector instead, and copy
 * examples/opentelemetry-tracing.ts, the middleware.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { Client } from 'agentchat';
import { startMockServer } from 'agentchat/testing';
import { tracing } from './opentelemetry-tracing.js';

// The SDK: spans kept in memory, the active span followed across awaits, W3C trace headers.
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const tracer = trace.getTracer('agentchat-example');

const mock = await startMockServer();
try {
  const client = new Client({
    baseUrl: mock.baseUrl,
    apiKey: 'sk_example_key',
    middleware: [tracing(tracer)],
  });

  // The service is briefly unavailable: the first attempt gets a 503 and is retried at once.
  mock.service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } });

  // The application's own span; each attempt's span becomes its child.
  const project = await tracer.startActiveSpan('create support project', async (span) => {
    try {
      return await client.projects.create({ name: 'Customer support', agentId: 'agent_support' });
    } finally {
      span.end();
    }
  });

  const report = {
    project: project.id,
    spans: exporter.getFinishedSpans().map(describe),
    traceparentsReceived: mock.service.requestLog().map((request) => request.headers.traceparent),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await mock.close();
  await provider.shutdown();
}

/** What a span exporter would send, in short: ids, kind, status and attributes. */
function describe(span: ReadableSpan) {
  return {
    name: span.name,
    kind: SpanKind[span.kind],
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    status: SpanStatusCode[span.status.code],
    attributes: span.attributes,
  };
}
