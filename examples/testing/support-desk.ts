/**
 * Application code that uses agentchat: the part of a help desk that opens a chat for a
 * customer and asks the agent their question. `support-desk.test.ts` tests it against the mock
 * service from `agentchat/testing`.
 */
import { APIConnectionError, type Client, InternalServerError, RateLimitError } from 'agentchat';

/** What the help desk shows the customer. */
export interface SupportAnswer {
  /** The project that holds this customer's conversation. */
  projectId: string;
  /** The agent's answer, or an apology when the service is unavailable. */
  answer: string;
  /** Follow-up questions to offer as buttons. */
  followUps: string[];
  /** False when `answer` is the apology rather than the agent's reply. */
  fromAgent: boolean;
}

/** What the customer reads when the service is down even after the client's retries. */
export const UNAVAILABLE =
  'Our assistant is unavailable right now. A person from the team will answer you by email.';

/**
 * Opens a support chat for `customerId` and asks the agent `question`. An outage (the service
 * failing or unreachable after retries) becomes an apology instead of an error page; anything
 * else, such as a refused key, is a bug to surface, so it is rethrown.
 *
 * @example
 * ```ts
 * const answer = await askSupport(client, 'cust_42', 'Where is my order?');
 * ```
 */
export async function askSupport(
  client: Client,
  customerId: string,
  question: string,
): Promise<SupportAnswer> {
  const project = await client.projects.create(
    { name: `Support for ${customerId}`, agentId: 'agent_support', metadata: { customerId } },
    // One key per customer and question: a double-clicked "Ask" creates one project, not two.
    { idempotencyKey: `support-${customerId}-${question}` },
  );
  try {
    const reply = await client.chat.send({ projectId: project.id, message: question });
    return {
      projectId: project.id,
      answer: reply.message,
      followUps: reply.suggestions.filter((s): s is string => typeof s === 'string').slice(0, 3),
      fromAgent: true,
    };
  } catch (error) {
    const outage =
      error instanceof InternalServerError ||
      error instanceof RateLimitError ||
      error instanceof APIConnectionError;
    if (!outage) throw error;
    return { projectId: project.id, answer: UNAVAILABLE, followUps: [], fromAgent: false };
  }
}
