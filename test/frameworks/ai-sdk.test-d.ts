/**
 * The types of agentchat/ai-sdk's tool set: with every tool offered, all three are present, so
 * the AI SDK's types of their calls and results hold no `undefined` (AI SDK 6 maps a tool set's
 * optional keys to `| undefined` in them: docs/agent-frameworks.md's samples, compiled against
 * AI SDK 6 by `npm run test:lowest`, read `result.toolName` and `part.toolCall` unguarded).
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  type AgentChatToolSet,
  type AgentChatToolsOptions,
  agentchatTools,
} from '../../src/ai-sdk/index.js';
import type { Client } from '../../src/index.js';

declare const client: Client;

describe('agentchatTools', () => {
  it('types every tool as present when every tool is offered', () => {
    expectTypeOf(agentchatTools(client)).toEqualTypeOf<Required<AgentChatToolSet>>();
    expectTypeOf(agentchatTools(client, { needsApproval: ['create_project'] })).toEqualTypeOf<
      Required<AgentChatToolSet>
    >();
    expectTypeOf(agentchatTools(client, { readOnly: false })).toEqualTypeOf<
      Required<AgentChatToolSet>
    >();
  });

  it('types the tools as possibly absent when the options choose among them', () => {
    expectTypeOf(agentchatTools(client, { readOnly: true })).toEqualTypeOf<AgentChatToolSet>();
    expectTypeOf(
      agentchatTools(client, { tools: ['get_project'] }),
    ).toEqualTypeOf<AgentChatToolSet>();
    const options: AgentChatToolsOptions = {};
    expectTypeOf(agentchatTools(client, options)).toEqualTypeOf<AgentChatToolSet>();
  });
});
