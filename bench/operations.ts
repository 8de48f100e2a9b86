import type { Contender } from './contenders.js';

/** The operations timed one at a time, named as the SDK names them. */
export const OPERATIONS = ['projects.get', 'projects.create', 'chat.send'] as const;
export type Operation = (typeof OPERATIONS)[number];

const CREATE_PARAMS = { name: 'Bench', agentId: 'agent_bench' };
const MESSAGE = 'What can you do?';

/** A thunk that performs `operation` once with `contender`, against the fixed project. */
export function callOf(
  contender: Contender,
  operation: Operation,
  projectId: string,
): () => Promise<unknown> {
  switch (operation) {
    case 'projects.get':
      return () => contender.getProject(projectId);
    case 'projects.create':
      return () => contender.createProject(CREATE_PARAMS);
    case 'chat.send':
      return () => contender.sendChat(projectId, MESSAGE);
  }
}
