/**
 * A tool call's trace context from the host (`_meta.traceparent`, SEP-414), made the parent of the
 * SDK's spans for that call. Through OpenTelemetry's global API registry, read only when a program
 * has loaded `@opentelemetry/api` and registered a propagator and a context manager: agentchat/mcp
 * depends on no OpenTelemetry package, and without one the call runs as it is.
 */

/** Where `@opentelemetry/api` 1.x keeps what an SDK registers (its `global-utils`). */
const OPENTELEMETRY_API = Symbol.for('opentelemetry.js.api.1');

/** The parts of the global context manager and propagator used here, as API 1.x defines them. */
interface OpenTelemetryGlobals {
  readonly context?: {
    active(): unknown;
    with<T>(context: unknown, run: () => T): T;
  };
  readonly propagation?: {
    extract(
      context: unknown,
      carrier: Record<string, string>,
      getter: {
        get(carrier: Record<string, string>, key: string): string | undefined;
        keys(carrier: Record<string, string>): string[];
      },
    ): unknown;
  };
}

/** The W3C Trace Context and Baggage fields a host may send in `_meta`. */
const FIELDS = ['traceparent', 'tracestate', 'baggage'] as const;

const getter = {
  get: (carrier: Record<string, string>, key: string) => carrier[key],
  keys: (carrier: Record<string, string>) => Object.keys(carrier),
};

/**
 * Runs `call` under the trace context a tool call's `_meta` carries, when it carries a
 * `traceparent` and OpenTelemetry is registered; else runs it as it is.
 */
export function withTraceContext<T>(
  meta: Readonly<Record<string, unknown>> | undefined,
  call: () => T,
): T {
  if (typeof meta?.traceparent !== 'string') return call();
  const api = (globalThis as { [OPENTELEMETRY_API]?: OpenTelemetryGlobals })[OPENTELEMETRY_API];
  const { context, propagation } = api ?? {};
  if (!context || !propagation) return call();
  const carrier: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = meta[field];
    if (typeof value === 'string') carrier[field] = value;
  }
  return context.with(propagation.extract(context.active(), carrier, getter), call);
}
