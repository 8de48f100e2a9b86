/**
 * The attributes agentchat/otel records, by the OpenTelemetry semantic conventions: stable HTTP
 * client spans and metrics, and the GenAI agent spans behind OpenTelemetry's own opt-in. Names are
 * written out rather than imported, so the entry needs no `@opentelemetry/semantic-conventions`.
 */
import type { Attributes } from '@opentelemetry/api';
import type { AttemptChannelContext, CallChannelContext } from '../core/diagnostics.js';

/** The path template of each operation, `url.template` (the client's own `request` has none). */
const URL_TEMPLATES: Readonly<Record<string, string>> = {
  'projects.create': '/v1/projects',
  'projects.get': '/v1/projects/{id}',
  'chat.send': '/v1/projects/{id}/chat',
};

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'https:': 443, 'http:': 80 };

/**
 * An attempt's attributes known before it is sent, which its span and its histogram point share:
 * the method, the address (`url.full` for the span alone) and the template.
 */
export function attemptAttributes(attempt: AttemptChannelContext): {
  readonly span: Attributes;
  readonly metric: Attributes;
} {
  const url = new URL(attempt.url);
  const metric: Attributes = {
    'http.request.method': attempt.method,
    'server.address': url.hostname,
    'server.port': url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port),
  };
  const template = URL_TEMPLATES[attempt.operation];
  if (template) metric['url.template'] = template;
  const span: Attributes = { ...metric, 'url.full': url.href };
  if (attempt.attempt > 0) span['http.request.resend_count'] = attempt.attempt;
  return { span, metric };
}

/**
 * An attempt's attributes once it ended: the status, and `error.type` for a failure (the status
 * code from 400 on, as the HTTP conventions say, or the SDK error's class).
 */
export function attemptOutcome(attempt: AttemptChannelContext): Attributes {
  const outcome: Attributes = {};
  if (attempt.status !== undefined) outcome['http.response.status_code'] = attempt.status;
  const errorType = attempt.error
    ? attempt.error.name
    : attempt.status !== undefined && attempt.status >= 400
      ? String(attempt.status)
      : undefined;
  if (errorType) outcome['error.type'] = errorType;
  return outcome;
}

/** Whether OTEL_SEMCONV_STABILITY_OPT_IN asks for the latest GenAI conventions. */
export function genAiOptedIn(environment: Readonly<Record<string, string | undefined>>): boolean {
  return (environment.OTEL_SEMCONV_STABILITY_OPT_IN ?? '')
    .split(',')
    .some((value) => value.trim() === 'gen_ai_latest_experimental');
}

/** Whether OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT allows recording message text. */
export function messageContentAllowed(
  environment: Readonly<Record<string, string | undefined>>,
): boolean {
  return environment.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true';
}

/** The GenAI agent-span attributes of a `chat.send` call as it starts. */
export function invokeAgentAttributes(call: CallChannelContext, withContent: boolean): Attributes {
  const { projectId, message } = call.params as { projectId: string; message: string };
  const attributes: Attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': 'agentchat',
    'gen_ai.conversation.id': projectId,
  };
  if (withContent) attributes['gen_ai.input.messages'] = textMessage('user', message);
  return attributes;
}

/** The agent's reply as `gen_ai.output.messages`, when message text may be recorded. */
export function agentReply(call: CallChannelContext): Attributes {
  const reply = (call.result as { message?: unknown } | undefined)?.message;
  return typeof reply === 'string'
    ? { 'gen_ai.output.messages': textMessage('assistant', reply) }
    : {};
}

/** One message of text in the GenAI conventions' JSON shape. */
function textMessage(role: 'user' | 'assistant', content: string): string {
  return JSON.stringify([{ role, parts: [{ type: 'text', content }] }]);
}
