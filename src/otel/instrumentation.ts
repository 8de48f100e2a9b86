import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  ValueType,
} from '@opentelemetry/api';
import {
  InstrumentationBase,
  type InstrumentationConfig,
  safeExecuteInTheMiddle,
} from '@opentelemetry/instrumentation';
import {
  ATTEMPT_CHANNEL,
  type AttemptChannelContext,
  CALL_CHANNEL,
  type CallChannelContext,
} from '../core/diagnostics.js';
import { VERSION } from '../version.js';
import {
  agentReply,
  attemptAttributes,
  attemptOutcome,
  genAiOptedIn,
  invokeAgentAttributes,
  messageContentAllowed,
} from './semantic-conventions.js';

/**
 * Options of {@link AgentChatInstrumentation}, besides `enabled` of every instrumentation.
 *
 * @example
 * ```ts
 * import { AgentChatInstrumentation, type AgentChatInstrumentationConfig } from 'agentchat/otel';
 *
 * const config: AgentChatInstrumentationConfig = {
 *   callHook: (span, call) => span.setAttribute('app.tenant', 'acme'),
 * };
 * const instrumentation = new AgentChatInstrumentation(config);
 * ```
 */
export interface AgentChatInstrumentationConfig extends InstrumentationConfig {
  /**
   * Called with each call's span as it starts, to add attributes of your own. What it throws is
   * logged through OpenTelemetry's diagnostics, never passed to the call.
   *
   * @default none
   */
  callHook?: (span: Span, call: CallChannelContext) => void;
  /**
   * Called with each attempt's span as it starts, before its trace context is put on the request.
   *
   * @default none
   */
  attemptHook?: (span: Span, attempt: AttemptChannelContext) => void;
  /**
   * Whether `chat.send` spans follow the GenAI agent-span conventions (`invoke_agent`).
   *
   * @default true when OTEL_SEMCONV_STABILITY_OPT_IN holds `gen_ai_latest_experimental`
   */
  genAiConventions?: boolean;
  /**
   * Whether those spans record the message sent and the agent's reply.
   *
   * @default true when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is `true`
   */
  captureMessageContent?: boolean;
}

/** What a call's end needs: its span, and whether to record the agent's reply on it. */
interface CallRecord {
  readonly span: Span;
  readonly recordsReply: boolean;
}

/** What an attempt's end needs: its span, its histogram attributes, when it started. */
interface AttemptRecord {
  readonly span: Span;
  readonly metric: Attributes;
  readonly startedAt: number;
}

type Handlers<Context extends object> = Partial<
  diagnosticsChannel.TracingChannelSubscribers<Context>
>;

/**
 * The OpenTelemetry instrumentation of agentchat: it subscribes to the client's diagnostics
 * channels (`agentchat:call`, `agentchat:attempt`) and records a span per call (named after the
 * operation, child of the caller's active span), a CLIENT span per attempt with the stable HTTP
 * client conventions, the W3C trace context on each attempt's request (unless it has a
 * `traceparent` already), and the `http.client.request.duration` histogram. With
 * `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`, `chat.send` is an `invoke_agent`
 * span of the GenAI conventions. Needs `@opentelemetry/api` (^1.9) and
 * `@opentelemetry/instrumentation`, and a runtime with `node:diagnostics_channel` (Node, Bun,
 * Deno).
 *
 * @example
 * ```ts
 * import { registerInstrumentations } from '@opentelemetry/instrumentation';
 * import { AgentChatInstrumentation } from 'agentchat/otel';
 *
 * registerInstrumentations({ instrumentations: [new AgentChatInstrumentation()] });
 * ```
 */
export class AgentChatInstrumentation extends InstrumentationBase<AgentChatInstrumentationConfig> {
  // Declared, not initialised: the base class's constructor calls enable() and
  // _updateMetricInstruments() before a subclass's fields would be set, and they must stay.
  /** Each call's span, and whether it records the agent's reply (decided as the call starts). */
  declare private callSpans: WeakMap<CallChannelContext, CallRecord>;
  declare private attempts: WeakMap<AttemptChannelContext, AttemptRecord>;
  /** The context of the call in progress, for its attempts: bound to the call channel's start. */
  declare private callContext: AsyncLocalStorage<Context>;
  declare private unsubscribe: (() => void) | undefined;
  declare private duration: Histogram;

  /**
   * Makes the instrumentation; it is enabled at once unless `config.enabled` is `false`.
   *
   * @example
   * ```ts
   * import { AgentChatInstrumentation } from 'agentchat/otel';
   *
   * const instrumentation = new AgentChatInstrumentation({ enabled: false });
   * instrumentation.enable();
   * ```
   */
  constructor(config: AgentChatInstrumentationConfig = {}) {
    super('agentchat', VERSION, config);
  }

  /** No module to patch: the client publishes on its channels. */
  protected override init(): undefined {
    return undefined;
  }

  /**
   * Subscribes to the client's channels (the base class calls it on construction).
   *
   * @example
   * ```ts
   * import { AgentChatInstrumentation } from 'agentchat/otel';
   *
   * const instrumentation = new AgentChatInstrumentation({ enabled: false });
   * instrumentation.enable();
   * ```
   */
  override enable(): void {
    super.enable();
    if (this.unsubscribe) return;
    this.callSpans ??= new WeakMap();
    this.attempts ??= new WeakMap();
    this.callContext ??= new AsyncLocalStorage();
    const calls = diagnosticsChannel.tracingChannel<unknown, CallChannelContext>(CALL_CHANNEL);
    const attempts = diagnosticsChannel.tracingChannel<unknown, AttemptChannelContext>(
      ATTEMPT_CHANNEL,
    );
    // The call's span starts as its context is bound, in the caller's async context: the caller's
    // active span is its parent, and the call's attempts run with the call's context in the store.
    const store = this.callContext;
    calls.start.bindStore(store, (message) => this.startCall(message as CallChannelContext));
    const callHandlers: Handlers<CallChannelContext> = {
      asyncEnd: (call) => this.endCall(call),
    };
    const attemptHandlers: Handlers<AttemptChannelContext> = {
      start: (attempt) => this.startAttempt(attempt),
      asyncEnd: (attempt) => this.endAttempt(attempt),
    };
    calls.subscribe(
      callHandlers as diagnosticsChannel.TracingChannelSubscribers<CallChannelContext>,
    );
    attempts.subscribe(
      attemptHandlers as diagnosticsChannel.TracingChannelSubscribers<AttemptChannelContext>,
    );
    this.unsubscribe = () => {
      calls.start.unbindStore(store);
      calls.unsubscribe(
        callHandlers as diagnosticsChannel.TracingChannelSubscribers<CallChannelContext>,
      );
      attempts.unsubscribe(
        attemptHandlers as diagnosticsChannel.TracingChannelSubscribers<AttemptChannelContext>,
      );
    };
  }

  /**
   * Unsubscribes from the client's channels: calls go on unrecorded, at no cost.
   *
   * @example
   * ```ts
   * import { AgentChatInstrumentation } from 'agentchat/otel';
   *
   * const instrumentation = new AgentChatInstrumentation();
   * instrumentation.disable();
   * ```
   */
  override disable(): void {
    super.disable();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  protected override _updateMetricInstruments(): void {
    this.duration = this.meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests.',
      unit: 's',
      valueType: ValueType.DOUBLE,
      advice: {
        explicitBucketBoundaries: [
          0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
        ],
      },
    });
  }

  private startCall(call: CallChannelContext): Context {
    const parent = context.active();
    const config = this.getConfig();
    const genAi =
      call.operation === 'chat.send' && (config.genAiConventions ?? genAiOptedIn(environment()));
    const withContent = genAi && this.capturesContent();
    const span = genAi
      ? this.tracer.startSpan(
          'invoke_agent',
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'agentchat.operation': call.operation,
              ...invokeAgentAttributes(call, withContent),
            },
          },
          parent,
        )
      : this.tracer.startSpan(
          call.operation,
          { kind: SpanKind.INTERNAL, attributes: { 'agentchat.operation': call.operation } },
          parent,
        );
    this.runHook(() => config.callHook?.(span, call), 'callHook');
    this.callSpans.set(call, { span, recordsReply: withContent });
    return trace.setSpan(parent, span);
  }

  private endCall(call: CallChannelContext): void {
    const record = this.callSpans.get(call);
    if (!record) return;
    this.callSpans.delete(call);
    const { span } = record;
    if (call.requestId !== undefined) span.setAttribute('agentchat.request_id', call.requestId);
    if (call.error) {
      span.setAttribute('error.type', call.error.name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: call.error.message });
    } else if (record.recordsReply && span.isRecording()) {
      span.setAttributes(agentReply(call));
    }
    span.end();
  }

  private startAttempt(attempt: AttemptChannelContext): void {
    const parent = this.callContext.getStore() ?? context.active();
    const { span: attributes, metric } = attemptAttributes(attempt);
    const span = this.tracer.startSpan(
      attempt.method,
      { kind: SpanKind.CLIENT, attributes },
      parent,
    );
    this.runHook(() => this.getConfig().attemptHook?.(span, attempt), 'attemptHook');
    // A request that already carries a trace context (the caller's own) keeps it.
    if (attempt.headers.traceparent === undefined) {
      propagation.inject(trace.setSpan(parent, span), attempt.headers);
    }
    this.attempts.set(attempt, { span, metric, startedAt: performance.now() });
  }

  private endAttempt(attempt: AttemptChannelContext): void {
    const record = this.attempts.get(attempt);
    if (!record) return;
    this.attempts.delete(attempt);
    const { span, metric, startedAt } = record;
    const outcome = attemptOutcome(attempt);
    span.setAttributes(outcome);
    if (outcome['error.type'] !== undefined) {
      const { error } = attempt;
      span.setStatus(
        error
          ? { code: SpanStatusCode.ERROR, message: error.message }
          : { code: SpanStatusCode.ERROR },
      );
    }
    span.end();
    this.duration.record((performance.now() - startedAt) / 1000, { ...metric, ...outcome });
  }

  private capturesContent(): boolean {
    return this.getConfig().captureMessageContent ?? messageContentAllowed(environment());
  }

  private runHook(hook: () => void, name: string): void {
    safeExecuteInTheMiddle(
      hook,
      (error) => error && this._diag.error(`${name} failed`, error),
      true,
    );
  }
}

/** The process's environment, where there is one. */
function environment(): Readonly<Record<string, string | undefined>> {
  return globalThis.process?.env ?? {};
}
