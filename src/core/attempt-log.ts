import type { Call } from './call.js';
import { AgentChatError, APIError, describeCall } from './errors/index.js';
import type { Log } from './logger.js';
import { requestIdOf, scrub } from './redaction.js';

/**
 * Logs how one attempt ended: method, path, status (or the error's name), attempt, duration, the
 * request id and the wait before the next attempt, with the request's headers, credentials redacted.
 * `end` is the response, its body read, or the error that stands for the attempt.
 */
export function logAttempt(
  log: Log,
  level: 'debug' | 'info',
  call: Call,
  end: Response | AgentChatError,
  wait?: number,
): void {
  const { site } = call;
  const [status, requestId]: [number | string, string | undefined] =
    end instanceof APIError
      ? [end.status, end.requestId]
      : end instanceof AgentChatError
        ? [end.name, undefined]
        : [end.status, requestIdOf(end.headers, call.secrets)];
  const durationMs = Date.now() - call.attemptStarted;
  const attempt = call.attempts;
  const maxAttempts = call.options.maxRetries + 1;
  const label = `attempt ${attempt}/${maxAttempts}`;
  // The one line a call whose retry the budget refused writes says so.
  const retryNote =
    wait !== undefined
      ? `; retrying in ${Math.round(wait)} ms`
      : end instanceof AgentChatError && end.retryBudgetExhausted
        ? '; not retried: the retry budget is spent'
        : '';
  // A credential is scrubbed from every value; the log (createLog) then redacts the Authorization
  // header, and any other named like a secret, whole, by its name.
  const headers: Record<string, string> = {};
  for (const [name, value] of call.request?.headers ?? [])
    headers[name] = scrub(value, call.secrets);
  log(level, `${describeCall(site)} → ${status} (${label}, ${durationMs} ms)${retryNote}`, {
    ...site,
    status,
    attempt,
    maxAttempts,
    durationMs,
    ...(wait === undefined ? {} : { retryInMs: Math.round(wait) }),
    requestId,
    headers,
  });
}
