import { cut } from '../internal/cut.js';
import type { ChatReply } from '../schemas.js';
import { array, checkFields, string } from './http/body-fields.js';
import type { StoredProject } from './store/projects.js';

/** What the built-in agent answers to one chat message. */
export interface AgentReply {
  message: string;
  suggestions: string[];
}

/**
 * One chat message as a scripted agent receives it.
 *
 * @example
 * ```ts
 * const agent: MockAgent = ({ project, message }) => ({
 *   message: `${project.name} got: ${message}`,
 *   suggestions: [],
 * });
 * ```
 */
export interface AgentTurn {
  /** The project the message was sent to, as the store holds it. */
  project: StoredProject;
  /** The message the client sent. */
  message: string;
  /** The request itself, its body still readable: for headers, or anything else a test keys on. */
  request: Request;
}

/**
 * A scripted agent: answers each chat message in place of the mock's built-in agent, with the
 * SDK's own reply type. A reply that is not a chat reply is answered as a 500 whose message
 * says what is wrong with it, never sent on as a silently wrong response.
 *
 * @example
 * ```ts
 * const mock = createMockService({
 *   agent: ({ message }) =>
 *     message.includes('refund')
 *       ? { message: 'Refunds take 5 days.', suggestions: ['Track my refund'] }
 *       : { message: 'How can I help?', suggestions: [] },
 * });
 * ```
 */
export type MockAgent = (turn: AgentTurn) => ChatReply | Promise<ChatReply>;

/**
 * The mock's own agent as a {@link MockAgent}: the one a mock without an `agent` option uses.
 *
 * @example
 * ```ts
 * await builtInAgent({ project, message: 'Hello', request });
 * ```
 */
export const builtInAgent: MockAgent = ({ project, message }) =>
  agentReply(project.agentId, message);

/**
 * What is wrong with a reply by the service's chat response (a `message` string, a
 * `suggestions` array), for the error a test reads; `undefined` for a good one.
 *
 * @example
 * ```ts
 * chatReplyProblem({ message: 'Hi' }); // 'reply.suggestions: expected an array, got nothing'
 * ```
 */
export function chatReplyProblem(reply: unknown, name = 'reply'): string | undefined {
  const checked = checkFields(reply, { message: string, suggestions: array }, name);
  return checked.ok ? undefined : checked.message;
}

const TOPIC_MAX_LENGTH = 60;

/**
 * The longest part of a message the reply quotes: a reply that repeated a message of megabytes
 * whole would double what every chat costs the mock, and the client, for nothing.
 */
const QUOTE_MAX_LENGTH = 1_000;

/**
 * The mock's agent: a pure function of the agent id and the message, so demos read well and tests
 * can assert on exact text.
 *
 * @example
 * ```ts
 * agentReply('agent_support', 'How do I reset my password?').message;
 * // 'agent_support here. You asked: "How do I reset my password?" ...'
 * ```
 */
export function agentReply(agentId: string, message: string): AgentReply {
  const text = message.trim().replace(/\s+/g, ' ');
  const topic = topicOf(text);

  if (/^(hi|hello|hey)\b/i.test(text)) {
    return {
      message: `Hello! ${agentId} here. How can I help with your project today?`,
      suggestions: ['What can you do?', 'Help me plan my project', 'Summarize our conversation'],
    };
  }

  // The topic is quoted: the mock cannot parse grammar, and a quote reads well around anything.
  const quote = cut(text, QUOTE_MAX_LENGTH);
  const reply = text.endsWith('?')
    ? `${agentId} here. You asked: "${quote}" Let's break that into small steps and take them one at a time.`
    : `${agentId} here. You said: "${quote}" Got it. Tell me more, or pick a follow-up below.`;

  return {
    message: reply,
    suggestions: [
      `Can you expand on "${topic}"?`,
      `What should I do first about "${topic}"?`,
      `Summarize "${topic}" in one sentence`,
    ],
  };
}

/** The message without its final punctuation, cut short so suggestions stay one line. */
function topicOf(text: string): string {
  const topic = text.replace(/[\s.!?]+$/, '') || text || 'that';
  return cut(topic, TOPIC_MAX_LENGTH);
}
