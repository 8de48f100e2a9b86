/**
 * The real OpenTelemetry SDK for a test file, as an application registers it: sdk-trace with an
 * in-memory exporter, sdk-metrics read on demand, the W3C propagator and the async-hooks context
 * manager, with agentchat/otel's instrumentation registered through `registerInstrumentations`.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { AgentChatInstrumentation } from '../../src/otel/index.js';

/** A metric reader read on demand. */
class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Registers the SDK and the instrumentation for the file's tests; spans are cleared after each. */
export function useOpenTelemetry() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const instrumentation = new AgentChatInstrumentation();
  let unregister: () => void;

  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(tracerProvider);
    unregister = registerInstrumentations({
      instrumentations: [instrumentation],
      tracerProvider,
      meterProvider,
    });
  });
  afterEach(() => exporter.reset());
  afterAll(() => {
    unregister();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  /** The finished spans of that name, oldest first. */
  const named = (name: string): ReadableSpan[] =>
    exporter.getFinishedSpans().filter((span) => span.name === name);

  /** The points of the `http.client.request.duration` histogram so far. */
  const durationPoints = async (): Promise<DataPoint<Histogram>[]> => {
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((candidate) => candidate.descriptor.name === 'http.client.request.duration');
    return (metric?.dataPoints ?? []) as DataPoint<Histogram>[];
  };

  return { exporter, instrumentation, named, durationPoints };
}

/** The id of a span's parent, if it has one. */
export function parentOf(span: ReadableSpan | undefined): string | undefined {
  return span?.parentSpanContext?.spanId;
}

/** The `traceparent` a span's context gives on the wire (sampled). */
export function traceparentOf(span: ReadableSpan | undefined): string {
  const { traceId, spanId } = span?.spanContext() ?? { traceId: '', spanId: '' };
  return `00-${traceId}-${spanId}-01`;
}
