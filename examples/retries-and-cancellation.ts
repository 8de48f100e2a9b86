/**
 * Retries, timeouts and cancellation.
 *
 *   AGENTCHAT_API_KEY=sk_... AGENTCHAT_BASE_URL=https://host/api npx tsx examples/retries-and-cancellation.ts
 *
 * With `logLevel: 'debug'` the client logs one line per attempt, so the retries show.
 */
import { randomUUID } from 'node:crypto';
import { APITimeoutError, APIUserAbortError, Client } from 'agentchat';

const client = new Client({
  maxRetries: 3, // up to 4 attempts; the default is 2 retries
  logLevel: 'debug',
  logger: console,
});

// 1. Retries. Connection errors, timeouts, 408, 409, 429 and 5xx are retried with backoff (or
// the wait the service asks for in Retry-After). A POST is retried safely: every attempt carries
// the same Idempotency-Key, so a retry after a lost response cannot create a second project.
// Pass your own key to make the call safe to repeat across process restarts too.
const idempotencyKey = `onboarding-${randomUUID()}`;
const project = await client.projects.create(
  { name: 'Retries demo', agentId: 'agent_demo' },
  { idempotencyKey },
);
console.log(`1. created ${project.id} with Idempotency-Key ${idempotencyKey}`);

// Repeating the call with the same key and body replays the first answer: same project.
const again = await client.projects.create(
  { name: 'Retries demo', agentId: 'agent_demo' },
  { idempotencyKey },
);
console.log(
  `   repeated with the same key: ${again.id === project.id ? 'same project' : again.id}`,
);

// 2. A timeout bounds each attempt (default 60 s). Here one attempt of at most 2 s, no retries.
try {
  const reply = await client.chat.send(
    { projectId: project.id, message: 'Summarise my open tickets' },
    { timeout: 2_000, maxRetries: 0 },
  );
  console.log(`2. answered within the timeout: ${reply.message}`);
} catch (error) {
  if (!(error instanceof APITimeoutError)) throw error;
  console.log(`2. ${error.message}`);
}

// 3. A deadline for the whole call, retries and backoff included: an AbortSignal.
const reply = await client.chat.send(
  { projectId: project.id, message: 'Hello!' },
  { signal: AbortSignal.timeout(30_000) },
);
console.log(`3. answered before the deadline: ${reply.message}`);

// 4. Cancellation: abort the signal (the user left the page, the job was cancelled). The call
// rejects at once with APIUserAbortError, whether it was mid-attempt or waiting to retry.
const controller = new AbortController();
const pending = client.chat.send(
  { projectId: project.id, message: 'Write a long report' },
  { signal: controller.signal },
);
controller.abort(new Error('the user cancelled'));
try {
  await pending;
} catch (error) {
  if (!(error instanceof APIUserAbortError)) throw error;
  console.log(`4. ${error.message} (reason: ${(error.cause as Error).message})`);
}
