/** What the agent answers to one chat message. */
export interface AgentReply {
  message: string;
  suggestions: string[];
}

const TOPIC_MAX_LENGTH = 60;

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
  const reply = text.endsWith('?')
    ? `${agentId} here. You asked: "${text}" Let's break that into small steps and take them one at a time.`
    : `${agentId} here. You said: "${text}" Got it. Tell me more, or pick a follow-up below.`;

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
  return topic.length > TOPIC_MAX_LENGTH ? `${topic.slice(0, TOPIC_MAX_LENGTH - 1)}…` : topic;
}
