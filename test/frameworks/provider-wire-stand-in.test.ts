/**
 * The provider stand-in (test/helpers/provider-stand-in.ts) holds OpenAI's strict-mode rules as
 * OpenAI does, so that the provider-wire tests can trust what it accepts.
 */
import { describe, expect, it } from 'vitest';
import { useProviderStandIn } from '../helpers/provider-stand-in.js';

const provider = useProviderStandIn();

const open = {
  type: 'object',
  properties: { name: { type: 'string' }, metadata: { type: 'object' } },
  required: ['name'],
};
const closed = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    metadata: { type: 'object', properties: {}, required: [], additionalProperties: false },
  },
  required: ['name', 'metadata'],
  additionalProperties: false,
};

/** Posts a Responses request offering one tool `create` with `parameters` and `strict`. */
async function offer(parameters: object, strict: boolean | null) {
  const response = await fetch(`${provider.baseUrl}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-5',
      input: 'hi',
      tools: [{ type: 'function', name: 'create', parameters, strict }],
    }),
  });
  return { status: response.status, body: await response.json() };
}

describe('OpenAI strict mode', () => {
  it('refuses an open object in a strict tool (strict: null on Responses too) with 400', async () => {
    provider.script({ text: 'never' });
    for (const strict of [true, null]) {
      const { status, body } = await offer(open, strict);
      expect(status).toBe(400);
      expect(body.error.message).toMatch(/^Invalid schema for function 'create': In context=\(\)/);
    }
  });

  it('accepts the open object when strict is false, and gives the call as scripted', async () => {
    const metadata = { tier: 2 };
    provider.script({ toolCall: { name: 'create', arguments: { name: 'A', metadata } } });
    const { status, body } = await offer(open, false);

    expect(status).toBe(200);
    expect(JSON.parse(body.output[0].arguments)).toEqual({ name: 'A', metadata });
  });

  it("cuts a strict call's arguments to what the closed schema lets a model write", async () => {
    provider.script({
      toolCall: { name: 'create', arguments: { name: 'A', metadata: { tier: 2 } } },
    });
    const { status, body } = await offer(closed, true);

    expect(status).toBe(200);
    expect(JSON.parse(body.output[0].arguments)).toEqual({ name: 'A', metadata: {} });
  });
});
