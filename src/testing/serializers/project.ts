import type { StoredProject } from '../store/projects.js';

/**
 * The create response: the spec returns only these four fields, not `agentId` or `metadata`.
 *
 * @example
 * ```ts
 * serializeCreatedProject(project); // { id, name, status, createdAt }
 * ```
 */
export function serializeCreatedProject(project: StoredProject) {
  const { id, name, status, createdAt } = project;
  return { id, name, status, createdAt };
}

/**
 * The get response: the full project.
 *
 * @example
 * ```ts
 * serializeProject(project); // { id, name, agentId, status, metadata, createdAt }
 * ```
 */
export function serializeProject(project: StoredProject) {
  const { id, name, agentId, status, metadata, createdAt } = project;
  return { id, name, agentId, status, metadata, createdAt };
}
