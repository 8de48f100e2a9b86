import { describe, expect, it } from 'vitest';
import { agentReply } from '../../src/testing/agent.js';

describe('mock agent', () => {
  it('answers the same message the same way', () => {
    expect(agentReply('agent_a', 'Plan my launch')).toEqual(
      agentReply('agent_a', 'Plan my launch'),
    );
  });

  it('names the agent and quotes the message', () => {
    const { message } = agentReply('agent_support', 'How do I reset my password?');

    expect(message).toBe(
      'agent_support here. You asked: "How do I reset my password?" ' +
        "Let's break that into small steps and take them one at a time.",
    );
  });

  it('suggests three follow-ups about the message', () => {
    expect(agentReply('agent_a', 'Plan my launch!').suggestions).toEqual([
      'Can you expand on "Plan my launch"?',
      'What should I do first about "Plan my launch"?',
      'Summarize "Plan my launch" in one sentence',
    ]);
  });

  it('greets back a greeting', () => {
    const reply = agentReply('agent_a', 'hello there');

    expect(reply.message).toBe('Hello! agent_a here. How can I help with your project today?');
    expect(reply.suggestions).toHaveLength(3);
  });

  it('shortens a long message in its suggestions', () => {
    const { suggestions } = agentReply('agent_a', 'word '.repeat(40));

    for (const suggestion of suggestions) expect(suggestion.length).toBeLessThan(110);
    expect(suggestions[0]).toContain('…');
  });

  it('still reads well for a message of only punctuation or spaces', () => {
    expect(agentReply('agent_a', '...').suggestions[0]).toBe('Can you expand on "..."?');
    expect(agentReply('agent_a', '   ').suggestions[0]).toBe('Can you expand on "that"?');
  });
});
