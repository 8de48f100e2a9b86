/**
 * "ky + the same policy": the floor for an SDK built on ky. A bare ky instance given what the SDK
 * gives its own (a `prefix`, default headers, a 60 s per-attempt timeout, a `beforeRequest` hook
 * that puts the bearer token and a POST's Idempotency-Key on the request, the retry policy as ky's
 * `retry` options) and reading every answer with `.json(schema)` against the SDK's own zod/mini
 * schemas. Nothing else of the SDK: no input validation, no per-call state, no reading of the body
 * inside the attempt, no mapping of failures to an error tree, no logging.
 *
 * The retry policy is written out here, not imported, doing the work the SDK's does: the same
 * statuses, `x-should-retry`, `retry-after-ms` before `Retry-After`, the 60 s fail-fast, capped
 * exponential backoff with jitter. Its `shouldRetry` and `delay` are made per call, as the SDK's
 * are, because ky's `delay(attemptCount)` learns nothing of the failure: the wait a server asked
 * for can reach it only through a closure of that one call.
 *
 * Its own module so that the bundle-size measurement can bundle it for a browser as it is.
 */

import ky, { HTTPError, type KyInstance, NetworkError, type RetryOptions, TimeoutError } from 'ky';
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
} as const;

/** Builds the ky instance once; every call reuses it. */
export function createKyPolicyClient({ baseUrl, apiKey }: KyPolicyTarget): KyPolicyClient {
  const api: KyInstance = ky.create({
    prefix: baseUrl,
    headers: { accept: 'application/json' },
    timeout: POLICY.timeoutMs,
    retry: {
      limit: POLICY.maxRetries,
      methods: ['get', 'post'],
      retryOnTimeout: true,
      // The cap is inside `delay`, before the jitter, so that the jitter survives at the cap.
      backoffLimit: Number.POSITIVE_INFINITY,
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
    getProject: (id) =>
      api.get(`v1/projects/${encodeURIComponent(id)}`, { retry: callRetry() }).json(projectSchema),
    createProject: (params) =>
      api.post('v1/projects', { json: params, retry: callRetry() }).json(createdProjectSchema),
    sendChat: (projectId, message) =>
      api
        .post(`v1/projects/${encodeURIComponent(projectId)}/chat`, {
          json: { message },
          retry: callRetry(),
        })
        .json(chatReplySchema),
  };
}

/** One call's `shouldRetry` and `delay`: the first settles the wait, the second hands it to ky. */
function callRetry(): RetryOptions {
  let wait = 0;
  return {
    shouldRetry: ({ error, retryCount }) => {
      const next = policyWait(error, retryCount - 1);
      if (next === undefined) return false;
      wait = next;
      return true;
    },
    delay: () => wait,
  };
}

/** The wait before retry `retry` (0-based) after `error`, or `undefined` for no retry. */
function policyWait(error: Error, retry: number): number | undefined {
  if (error instanceof HTTPError) {
    const { headers, status } = error.response;
    const shouldRetry = headers.get('x-should-retry');
    if (shouldRetry === 'false') return undefined;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    if (shouldRetry !== 'true' && !retryable) return undefined;
    const serverWait = serverRetryAfter(headers);
    if (serverWait !== undefined) {
      return serverWait <= POLICY.maxServerWaitMs ? serverWait : undefined;
    }
  } else if (!(error instanceof NetworkError || error instanceof TimeoutError)) {
    return undefined;
  }
  const backoff = Math.min(POLICY.initialDelayMs * 2 ** retry, POLICY.maxDelayMs);
  return backoff * (1 - POLICY.jitter * Math.random());
}

/** `retry-after-ms`, else `Retry-After` as seconds or an HTTP date, in ms. */
function serverRetryAfter(headers: Headers): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
