// agentchat/otel from the packed tarball on one line of OpenTelemetry JS (argv: base URL, line):
// `current` (api 1.10, sdk-trace's TracerProvider), or `2.x` and `lowest` (api 1.9, sdk-trace-base's
// BasicTracerProvider). Prints the finished spans as one JSON line.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { Client } from 'agentchat';
import { AgentChatInstrumentation } from 'agentchat/otel';

const [baseUrl, line] = process.argv.slice(2);
const sdk =
  line === 'current'
    ? await import('@opentelemetry/sdk-trace')
    : await import('@opentelemetry/sdk-trace-base');
const exporter = new sdk.InMemorySpanExporter();
const tracerProvider =
  line === 'current'
    ? new sdk.TracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor({ exporter })] })
    : new sdk.BasicTracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor(exporter)] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(tracerProvider);
registerInstrumentations({ instrumentations: [new AgentChatInstrumentation()], tracerProvider });

const client = new Client({ apiKey: 'sk_test_package', baseUrl });
await trace.getTracer('app').startActiveSpan('job', async (span) => {
  try {
    await client.projects.create({ name: `otel ${line}`, agentId: 'agent_1' });
  } finally {
    span.end();
  }
});
const spans = exporter.getFinishedSpans().map((span) => ({
  name: span.name,
  kind: span.kind,
  traceId: span.spanContext().traceId,
  spanId: span.spanContext().spanId,
  // 2.x and the current line both name it parentSpanContext.
  parent: span.parentSpanContext?.spanId,
}));
console.log(JSON.stringify({ spans }));
