import type { AttemptEnd, Call } from './call.js';
import { APIError, describeCall } from './errors/index.js';
import type { Log } from './logger.js';
import { requestIdOf, scrub } from './redaction.js';

/**
 * Logs how one attempt ended: method, path, status (or the error's name), attempt, duration, the
 * request id and the wait before the next attempt, with the request's headers, credentials redacted.
 */
export function logAttempt(
  log: Log,
  level: 'debug' | 'info',
  call: Call,
  end: AttemptEnd,
  wait?: number,
): void {
  const { site } = call;
  const [status, requestId]: [number | string, string | undefined] =
    end.kind === 'response'
      ? [end.response.status, requestIdOf(end.response.headers, call.secrets)]
      : end.error instanceof APIError
        ? [end.error.status, end.error.requestId]
        : [end.error.name, undefined];
  const durationMs = Date.now() - call.attemptStarted;
  const attempt = call.attempts;
  const maxAttempts = call.options.maxRetries + 1;
  const label = `attempt ${attempt}/${maxAttempts}`;
  // The one line a call whose retry the budget refused writes says so.
  const retryNote =
    wait !== undefined
      ? `; retrying in ${Math.round(wait)} ms`
      : end.kind === 'error' && end.error.retryBudgetExhausted
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
