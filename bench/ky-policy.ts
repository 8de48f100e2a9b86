/**
 * "ky + the same policy": the floor for an SDK built on ky. A bare ky instance given what the SDK
 * gives its own (a `prefix`, default headers, a 60 s per-attempt timeout, a `beforeRequest` hook
 * that puts the bearer token and a POST's Idempotency-Key on the request, the retry policy as ky's
 * `retry` options) and reading every answer with `.json(schema)` against the SDK's own zod/mini
 * schemas. Nothing else of the SDK: no input validation, no per-call state, no reading of the body
 * inside the attempt, no mapping of failures to an error tree, no logging.
 *
 * Everything is declared once, on the instance: a call passes only what ky cannot know (its method
 * and body). The retry policy is written out here, not imported, and makes the same decisions as
 * the SDK's: the same statuses, `x-should-retry`, the 60 s fail-fast, capped exponential backoff
 * with jitter, all in a `shouldRetry` and a `delay` that serve every call. The one thing a static
 * `delay` cannot do is wait what a failure asked for, since ky tells it only the attempt count;
 * so a server's wait is left to ky's own `Retry-After` handling, which reads it for 429 and 503
 * only and does not know `retry-after-ms`. None of this runs on the success path the benchmarks
 * time.
 *
 * Its own module so that the bundle-size measurement can bundle it for a browser as it is.
 */

import ky, { HTTPError, type KyInstance, NetworkError, TimeoutError } from 'ky';
// The schemas the SDK validates answers with. The built package does not export them, so they come
// from the source; zod/mini itself resolves to the same module the built SDK imports.
import { chatReplySchema, createdProjectSchema, projectSchema } from '../src/schemas.js';

/** Where the client sends its requests. */
export interface KyPolicyTarget {
  baseUrl: string;
  apiKey: string;
}

/** The three operations, each resolving to the validated body. */
export interface KyPolicyClient {
  getProject(id: string): Promise<unknown>;
  createProject(params: { name: string; agentId: string }): Promise<unknown>;
  sendChat(projectId: string, message: string): Promise<unknown>;
}

/** The policy's numbers, as in the SDK's `retryDefaults` and `clientDefaults`. */
const POLICY = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  jitter: 0.25,
  maxServerWaitMs: 60_000,
  timeoutMs: 60_000,
  /** The SDK's `maxResponseBytes`, with ky's own limit (ky 2.2's `maxResponseSize`). */
  maxResponseBytes: 10 * 1024 * 1024,
} as const;

/** Builds the ky instance once; every call reuses it. */
export function createKyPolicyClient({ baseUrl, apiKey }: KyPolicyTarget): KyPolicyClient {
  const api: KyInstance = ky.create({
    prefix: baseUrl,
    headers: { accept: 'application/json' },
    timeout: POLICY.timeoutMs,
    maxResponseSize: POLICY.maxResponseBytes,
    retry: {
      limit: POLICY.maxRetries,
      methods: ['get', 'post'],
      retryOnTimeout: true,
      maxRetryAfter: POLICY.maxServerWaitMs,
      shouldRetry,
      delay: backoff,
    },
    hooks: {
      // Runs once per call: one Idempotency-Key for every attempt of a POST.
      beforeRequest: [
        ({ request }) => {
          request.headers.set('authorization', `Bearer ${apiKey}`);
          if (request.method === 'POST')
            request.headers.set('idempotency-key', crypto.randomUUID());
        },
      ],
    },
  });
  return {
    getProject: (id) => api.get(`v1/projects/${encodeURIComponent(id)}`).json(projectSchema),
    createProject: (params) => api.post('v1/projects', { json: params }).json(createdProjectSchema),
    sendChat: (projectId, message) =>
      api
        .post(`v1/projects/${encodeURIComponent(projectId)}/chat`, { json: { message } })
        .json(chatReplySchema),
  };
}

/**
 * Whether to retry after `error`: connection failures and timeouts, and the statuses the policy
 * retries unless `x-should-retry` says otherwise, not when the server asks for more than 60 s.
 * `true` waits the backoff; a 429 or 503 with a `Retry-After` is left to ky (`undefined`), whose
 * own checks then wait what the header says.
 */
function shouldRetry({ error }: { error: Error }): boolean | undefined {
  if (!(error instanceof HTTPError)) {
    return error instanceof NetworkError || error instanceof TimeoutError;
  }
  const { headers, status } = error.response;
  const verdict = headers.get('x-should-retry');
  if (verdict === 'false') return false;
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  if (verdict !== 'true' && !retryable) return false;
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return true;
  if (Number(retryAfter) * 1000 > POLICY.maxServerWaitMs) return false;
  return status === 429 || status === 503 ? undefined : true;
}

/** Capped exponential backoff, with up to `jitter` of it taken off at random. */
function backoff(attemptCount: number): number {
  const base = Math.min(POLICY.initialDelayMs * 2 ** (attemptCount - 1), POLICY.maxDelayMs);
  return base * (1 - POLICY.jitter * Math.random());
}
