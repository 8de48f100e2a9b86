/**
 * The one place where every way a call can fail becomes an error of the SDK's tree. No ky error,
 * raw `TypeError` or `SyntaxError` gets past it, and none is kept as a `cause`: ky's errors hold
 * the `Request`, Authorization header included, and `util.inspect` would print it. What a cause
 * says (its message, and the cause itself as the error shows it) is scrubbed of the call's
 * secrets (see `scrubCause`).
 */
import { isHTTPError, isKyError, isTimeoutError, SchemaValidationError } from 'ky';
import { AttemptFailure } from './attempt.js';
import type { Call } from './call.js';
import {
  AgentChatError,
  APIConnectionError,
  type APITimeoutError,
  APIUserAbortError,
  ConfigurationError,
  describeCall,
  timeoutError,
  timeoutScope,
} from './errors/index.js';
import { scrubCause, scrubText } from './redaction.js';
import { apiErrorOf, invalidBodyError } from './response.js';
import { readFailure } from './server-runtime.js';

/** Reads what a call failed with as an SDK error; within an attempt, the same failure gives the same error. */
export function toAgentChatError(error: unknown, call: Call): AgentChatError {
  const cached = call.failure;
  if (cached && cached.source === error) return cached.error;
  const mapped = map(error, call);
  call.failure = { source: error, error: mapped };
  return mapped;
}

function map(error: unknown, call: Call): AgentChatError {
  const { site } = call;
  // The caller's abort comes first: it also aborts a fetch in flight, which then fails as well.
  const { signal } = call.options;
  if (signal?.aborted) return new APIUserAbortError(site, signal.reason);
  // An apiKey function that failed, or any error the SDK raised itself, is already in the tree.
  if (error instanceof AgentChatError) return error;

  const answered = call.response;
  if (isHTTPError(error) && answered) {
    return apiErrorOf(site, answered, call.secrets);
  }
  if (isTimeoutError(error)) {
    // ky's one TimeoutError stands for both limits; the call's ends the call.
    return timeoutScope(call) === 'call' ? outOfTime(call) : timeoutError(call, 'attempt');
  }
  // What the attempt's fetch threw: the platform's own "fetch failed", "terminated" when the
  // connection dropped while the body was read, or a custom fetch's own error.
  if (error instanceof AttemptFailure) return connectionFailure(call, error.cause, error.secure);
  // A 2xx body that breaks the schema, or is not JSON at all (JSON.parse's raw SyntaxError).
  if ((error instanceof SchemaValidationError || error instanceof SyntaxError) && answered) {
    const schemaError = error instanceof SchemaValidationError ? error : undefined;
    return invalidBodyError(site, answered, call.secrets, call.endpoint.output, schemaError);
  }
  // Nothing else is expected; keep the detail in the message, and a ky error out of `cause`.
  const detail = error instanceof Error ? error.message : String(error);
  return new AgentChatError(
    `${describeCall(site)} failed: ${scrubText(detail, call.secrets)}`,
    isKyError(error) ? undefined : { cause: scrubCause(error, call.secrets) },
  );
}

/**
 * A fetch that failed: an `APIConnectionError`, retried, unless its causes show that no retry can
 * mend it (a certificate problem, a proxy refusing its credentials), which ends the call at once,
 * or that the dispatcher comes from an undici the `fetch` cannot drive: a `ConfigurationError`.
 */
function connectionFailure(call: Call, cause: unknown, secure: boolean): AgentChatError {
  const { detail, final, misconfiguration } = readFailure(cause, secure);
  if (final) call.stopped = true;
  // The cause is the platform's or, with a fetch or dispatcher of the application's own, its
  // error, whose words may quote the request, Authorization header and form body included: what
  // the error shows of it is scrubbed of the call's secrets, like a server's answer.
  const { secrets } = call;
  const shown = scrubCause(cause, secrets);
  if (misconfiguration) {
    return new ConfigurationError(
      `${describeCall(call.site)}: ${scrubText(misconfiguration, secrets)}`,
      { cause: shown },
    );
  }
  const said = detail ?? (cause instanceof Error ? cause.message : String(cause));
  return new APIConnectionError(
    call.site,
    shown,
    call.attempts,
    `could not reach the service (${scrubText(said, secrets)})`,
  );
}

/** The error a call ends with when its `totalTimeout` is up, or would be before the next attempt. */
export function outOfTime(call: Call): APITimeoutError {
  call.stopped = true;
  return timeoutError(call, 'call');
}
