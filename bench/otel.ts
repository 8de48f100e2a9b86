/**
 * What tracing costs a call, network stubbed out (see overhead.ts), on the process's CPU clock:
 * the same client in three states, interleaved round-robin per sample so that drift hits each
 * alike. `off`: nobody subscribes to the diagnostics channels, the state of every application
 * without an APM. `channels`: a bare subscriber that does nothing, the price of publishing.
 * `otel`: agentchat/otel registered on the real OpenTelemetry SDK (sdk-trace with a span processor
 * that exports to nowhere, sdk-metrics with a reader, the async-hooks context manager and the W3C
 * propagator), the price an application with OpenTelemetry pays.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { AgentChatInstrumentation } from '../dist/otel/index.js';
import { createContender } from './contenders.js';
import { callOf, OPERATIONS, type Operation } from './operations.js';
import { rotate, type Summary, summarize } from './stats.js';
import { installStubFetch, STUB_PROJECT_ID } from './stub-fetch.js';

/** The states measured, in report order. */
export const TRACING_MODES = ['off', 'channels', 'otel'] as const;
export type TracingMode = (typeof TRACING_MODES)[number];

/** Per operation and state: CPU per call in microseconds. */
export type TracingOverheads = Map<Operation, Map<TracingMode, Summary>>;

/** A metric reader that is never read: the histogram still records every point. */
class IdleReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const CHANNELS = ['agentchat:call', 'agentchat:attempt'];
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
const ignore = () => {};
const bareSubscriber = Object.fromEntries(EVENTS.map((event) => [event, ignore]));

function subscribeBare(subscribe: boolean): void {
  for (const name of CHANNELS) {
    const channel = diagnosticsChannel.tracingChannel(name);
    const handlers =
      bareSubscriber as unknown as diagnosticsChannel.TracingChannelSubscribers<object>;
    if (subscribe) channel.subscribe(handlers);
    else channel.unsubscribe(handlers);
  }
}

/** Times `batch` sequential calls per sample, `samples` per state and operation, after `warmup`. */
export async function measureTracingOverhead({
  warmup,
  samples,
  batch,
}: {
  warmup: number;
  samples: number;
  batch: number;
}): Promise<TracingOverheads> {
  const restoreFetch = installStubFetch();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracerProvider = new TracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({
        exporter: {
          export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
          shutdown: () => Promise.resolve(),
        },
      }),
    ],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  const instrumentation = new AgentChatInstrumentation({ enabled: false });
  const unregister = registerInstrumentations({
    instrumentations: [instrumentation],
    tracerProvider,
    meterProvider: new MeterProvider({ readers: [new IdleReader()] }),
  });
  instrumentation.disable();
  const modes: Record<TracingMode, { on(): void; off(): void }> = {
    off: { on: ignore, off: ignore },
    channels: { on: () => subscribeBare(true), off: () => subscribeBare(false) },
    otel: { on: () => instrumentation.enable(), off: () => instrumentation.disable() },
  };
  try {
    const agentchat = createContender('agentchat', {
      baseUrl: 'http://stub.test/api',
      apiKey: 'sk-stub',
    });
    const results: TracingOverheads = new Map();
    for (const operation of OPERATIONS) {
      const call = callOf(agentchat, operation, STUB_PROJECT_ID);
      const timings = new Map<TracingMode, number[]>(TRACING_MODES.map((mode) => [mode, []]));
      for (let round = 0; round < warmup + samples; round++) {
        for (const mode of rotate(TRACING_MODES, round)) {
          modes[mode].on();
          // `off` must really be off: a subscriber left behind would make it measure publishing.
          if (
            mode === 'off' &&
            diagnosticsChannel.tracingChannel('agentchat:call').hasSubscribers
          ) {
            throw new Error('a subscriber is left on agentchat:call');
          }
          const started = cpuMicroseconds();
          for (let i = 0; i < batch; i++) await call();
          const elapsed = cpuMicroseconds() - started;
          modes[mode].off();
          if (round >= warmup) timings.get(mode)?.push(elapsed / batch);
        }
      }
      results.set(operation, new Map([...timings].map(([mode, list]) => [mode, summarize(list)])));
    }
    return results;
  } finally {
    unregister();
    restoreFetch();
  }
}

function cpuMicroseconds(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}
