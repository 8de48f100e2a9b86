/**
 * What the provider-wire tests hold each framework path to, read from the tool table itself
 * (src/tools/table.ts): the tools that reach the provider, and the scripted turns of one loop.
 */
import { expect } from 'vitest';
import { allTools } from '../../src/tools/scope.js';
import type {
  ProviderRequest,
  ProviderStandIn,
  ReceivedTool,
} from '../helpers/provider-stand-in.js';

/** Free-form metadata as a model writes it, which must reach the service unchanged. */
export const METADATA = { launchDate: '2026-12-01', tier: 2, owners: ['ana'] };

/** The JSON Schema the table gives a tool's input. */
function tableSchema(name: string) {
  const tool = allTools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} in the table`);
  const { $schema: _, ...schema } = tool.inputSchema['~standard'].jsonSchema.input({
    target: 'draft-07',
  }) as Record<string, unknown> & { required: string[] };
  return { tool, schema };
}

/**
 * Expects `received` to be the table's tools named `names`, each with its description and every
 * property's type, description and constraints (such as `get_project.id`'s `minLength`).
 */
export function expectTableTools(received: readonly ReceivedTool[], names: readonly string[]) {
  expect(received.map(({ name }) => name).sort()).toEqual([...names].sort());
  for (const tool of received) {
    const { tool: table, schema } = tableSchema(tool.name);
    expect(tool.description, tool.name).toBe(table.description);
    expect(tool.parameters, tool.name).toMatchObject({
      type: 'object',
      properties: schema.properties,
    });
    expect(tool.parameters.required, tool.name).toEqual(expect.arrayContaining(schema.required));
  }
}

/** The last tool result in the request, as text. */
export function lastResultText(provider: ProviderStandIn, request: ProviderRequest | undefined) {
  const result = provider.toolResults(request).at(-1);
  if (!result) throw new Error('the request carried no tool result');
  return result.text;
}

/**
 * Scripts a loop on `provider`: create a project with {@link METADATA}, read it back by the id
 * the create result gave the model, then answer "Done.".
 */
export function scriptLoop(provider: ProviderStandIn): void {
  provider.script(
    {
      toolCall: {
        name: 'create_project',
        arguments: { name: 'Launch', agentId: 'agent_support', metadata: METADATA },
      },
    },
    (request) => {
      const id = /"id":"(proj_[^"]+)"/.exec(lastResultText(provider, request))?.[1];
      if (!id) throw new Error(`no id in ${JSON.stringify(request.body).slice(0, 3000)}`);
      return { toolCall: { name: 'get_project', arguments: { id } } };
    },
    { text: 'Done.' },
  );
}

/** A read of a project that does not exist, then an answer. */
export function scriptMissingProject(provider: ProviderStandIn): void {
  provider.script(
    { toolCall: { name: 'get_project', arguments: { id: 'proj_missing' } } },
    { text: 'It does not exist.' },
  );
}
