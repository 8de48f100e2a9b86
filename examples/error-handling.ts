/**
 * Error handling: every failure is an `AgentChatError` subclass that says what happened, so one
 * `instanceof` chain (or `error.status`) decides what to do.
 *
 *   AGENTCHAT_API_KEY=sk_... AGENTCHAT_BASE_URL=https://host/api npx tsx examples/error-handling.ts
 */
import {
  AgentChatError,
  APIConnectionError,
  APIError,
  AuthenticationError,
  Client,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
} from 'agentchat';

const client = new Client();

/** Turns any failure of a call into one line for the user, and rethrows what is not ours. */
function explain(error: unknown): string {
  if (error instanceof RequestValidationError) {
    // Bad input: nothing was sent. `issues` names every offending field.
    return `fix the input: ${error.issues.map((i) => `${i.path} ${i.message}`).join(', ')}`;
  }
  if (error instanceof NotFoundError) return `no such project (request id ${error.requestId})`;
  if (error instanceof AuthenticationError)
    return 'the API key was refused: check AGENTCHAT_API_KEY';
  if (error instanceof RateLimitError) {
    return `rate limited; the service asked to wait ${error.retryAfter ?? 'an unknown number of'} ms`;
  }
  if (error instanceof APIError) {
    // Any other status: the message carries the method, path, status and the service's reason.
    return `the service answered ${error.status}: ${error.message}`;
  }
  // No response at all (DNS, refused or dropped connection, timeout); `cause` has the detail.
  if (error instanceof APIConnectionError) return error.message;
  if (error instanceof AgentChatError) return `${error.name}: ${error.message}`;
  throw error;
}

async function attempt(label: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    console.log(`${label}: ok`);
  } catch (error) {
    console.log(`${label}: ${explain(error)}`);
  }
}

// Invalid input rejects before anything is sent, listing each offending field.
await attempt('empty name and agent', () => client.projects.create({ name: '', agentId: '' }));

// A well-formed id that names no project: 404, NotFoundError.
await attempt('unknown project', () => client.projects.get('proj_does_not_exist'));

// A key the service does not know: 401, AuthenticationError. (Not retried: a retry cannot help.)
const badKeyClient = new Client({ apiKey: 'sk_not_a_real_key' });
await attempt('unknown API key', () => badKeyClient.projects.get('proj_does_not_exist'));

// Nothing listens on port 2 of this machine: APIConnectionError (here without retries).
const offline = new Client({ baseUrl: 'http://127.0.0.1:2/api', maxRetries: 0 });
await attempt('service unreachable', () => offline.projects.get('proj_1'));

// Errors also serialise for structured logs, without headers or the key.
try {
  await client.projects.get('proj_does_not_exist');
} catch (error) {
  if (error instanceof APIError) console.log(JSON.stringify(error.toJSON()));
}
