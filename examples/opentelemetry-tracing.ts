/**
 * An OpenTelemetry span for every HTTP attempt of an agentchat call, as a middleware. Copy this
 * file into your project: it needs only `@opentelemetry/api` (whose calls do nothing until an
 * OpenTelemetry SDK is registered) and `agentchat`. examples/opentelemetry.ts shows it running.
 *
 * Each attempt, retries and the replay after a 401 included, gets a CLIENT span named after its
 * method, with the stable HTTP client attributes of the OpenTelemetry semantic conventions. The
 * span is the child of whatever span is active when the call is made, and the request carries it
 * in a W3C `traceparent` header (through the registered propagator) so that the service can
 * join the trace.
 */
import {
  type Attributes,
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  type TextMapSetter,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { Middleware } from 'agentchat';

/** Lets a propagator write its headers (`traceparent`, `tracestate`, ...) into a `Headers`. */
const headerSetter: TextMapSetter<Headers> = {
  set: (headers, name, value) => headers.set(name, value),
};

/**
 * A middleware that traces every attempt of a call with `tracer`.
 *
 * Attributes: `http.request.method`, `server.address`, `server.port`, `url.full`,
 * `http.response.status_code`, `http.request.resend_count` (from the second attempt on),
 * `error.type` when the attempt failed, the response's `x-request-id` as
 * `http.response.header.x-request-id`, and `agentchat.operation` (such as `projects.create`).
 * No request header is recorded: they hold the API key.
 *
 * @example
 * import { trace } from '@opentelemetry/api';
 * import { Client } from 'agentchat';
 * import { tracing } from './opentelemetry-tracing.js';
 *
 * const client = new Client({ middleware: [tracing(trace.getTracer('my-app'))] });
 */
export function tracing(tracer: Tracer): Middleware {
  return async (request, next, { operation, attempt }) => {
    const url = new URL(request.url);
    const attributes: Attributes = {
      'http.request.method': request.method,
      'server.address': url.hostname,
      'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      // A Request's URL never holds a user name or password (fetch refuses them), and agentchat
      // puts no secret in a query string: the URL is safe to record as it is.
      'url.full': url.href,
      'agentchat.operation': operation,
    };
    // Set on resends only, as the conventions say: the first attempt has no resend count.
    if (attempt > 0) attributes['http.request.resend_count'] = attempt;

    // The semantic conventions name a client span `{method} {url.template}`, or `{method}` alone
    // when no low-cardinality template is known: the path holds project ids.
    const span = tracer.startSpan(request.method, { kind: SpanKind.CLIENT, attributes });
    const spanContext = trace.setSpan(context.active(), span);

    // A new request with the trace headers added: the one given is left as it was.
    const headers = new Headers(request.headers);
    propagation.inject(spanContext, headers, headerSetter);
    const traced = new Request(request, { headers });

    try {
      // Spans made further down (a traced fetch, say) become children of this one.
      const response = await context.with(spanContext, () => next(traced));
      span.setAttribute('http.response.status_code', response.status);
      // The id the service's support asks for, recorded the way the conventions record a header.
      const requestId = response.headers.get('x-request-id');
      if (requestId) span.setAttribute('http.response.header.x-request-id', [requestId]);
      if (response.status >= 400) {
        span.setAttribute('error.type', String(response.status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return response;
    } catch (error) {
      // No response: the connection failed, the attempt timed out, or the caller aborted.
      // error.type is the error's class name; `_OTHER` is the conventions' word for the unknown.
      const isError = error instanceof Error;
      span.setAttribute('error.type', isError ? error.name : '_OTHER');
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: isError ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  };
}
