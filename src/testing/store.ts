import { randomId } from './ids.js';
import type { StoredProject } from './types.js';

/** What a create request supplies; the store fills in the rest. */
export interface NewProject {
  name: string;
  agentId: string;
  metadata?: Record<string, unknown>;
}

/** The mock's in-memory projects. */
export interface ProjectStore {
  create(input: NewProject): StoredProject;
  get(id: string): StoredProject | undefined;
  /** Copies, so a test cannot change the store by editing what it read. */
  list(): StoredProject[];
  clear(): void;
}

/**
 * Creates an empty project store.
 *
 * @example
 * ```ts
 * const store = createProjectStore();
 * const project = store.create({ name: 'Demo', agentId: 'agent_1' });
 * store.get(project.id); // the same project
 * ```
 */
export function createProjectStore(): ProjectStore {
  // A Map keeps insertion order, so list() reads oldest first.
  const projects = new Map<string, StoredProject>();

  return {
    create({ name, agentId, metadata }) {
      const project: StoredProject = {
        id: randomId('proj'),
        name,
        agentId,
        status: 'active',
        // Cloned so that the caller keeping a reference cannot edit the stored project.
        metadata: structuredClone(metadata ?? {}),
        createdAt: new Date().toISOString(),
      };
      projects.set(project.id, project);
      return project;
    },
    get: (id) => projects.get(id),
    list: () => [...projects.values()].map((project) => structuredClone(project)),
    clear: () => projects.clear(),
  };
}
