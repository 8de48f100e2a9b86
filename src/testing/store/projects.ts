import { randomId } from './ids.js';

/**
 * A project as the mock's store holds it.
 *
 * @example
 * ```ts
 * expect(mock.projects()).toMatchObject([{ name: 'Demo', agentId: 'agent_1', status: 'active' }]);
 * ```
 */
export interface StoredProject {
  /** `proj_` followed by random letters and digits. */
  id: string;
  /** The name the client sent. */
  name: string;
  /** The agent id the client sent. */
  agentId: string;
  /** `active` for every project the mock creates; a seed may give another. */
  status: string;
  /** As the client sent it; `{}` when omitted. */
  metadata: Record<string, unknown>;
  /** ISO 8601 UTC creation time. */
  createdAt: string;
}

/** What a create request supplies; the store fills in the rest. */
export interface NewProject {
  name: string;
  agentId: string;
  metadata?: Record<string, unknown>;
}

/** The mock's in-memory projects. */
export interface ProjectStore {
  create(input: NewProject): StoredProject;
  /** Stores a project as given, replacing one with its id: what an override answered to a create. */
  put(project: StoredProject): void;
  get(id: string): StoredProject | undefined;
  /** Copies, so a test cannot change the store by editing what it read. */
  list(): StoredProject[];
  /** Back to the seeded projects and nothing else. */
  reset(): void;
}

/**
 * How much the store keeps, whatever clients create: a mock serving for hours, or facing a client
 * that creates projects in a loop with megabytes of metadata each, would otherwise grow with every
 * POST. Past either limit the oldest projects are forgotten first (a read of one answers 404), as
 * the request log forgets its oldest requests; `reset()` restores the seeded ones. The size is
 * that of each project as JSON, in UTF-8 bytes.
 */
export const PROJECT_LIMITS = { projects: 10_000, bytes: 32 * 1024 * 1024 } as const;

/**
 * Creates a project store holding the seeded projects (see seeds.ts), or none.
 *
 * @example
 * ```ts
 * const store = createProjectStore();
 * const project = store.create({ name: 'Demo', agentId: 'agent_1' });
 * store.get(project.id); // the same project
 * ```
 */
export function createProjectStore(seeded: readonly StoredProject[] = []): ProjectStore {
  // A Map keeps insertion order, so list() reads oldest first.
  const projects = new Map<string, StoredProject>();
  // The size of each project kept, and of them all, against PROJECT_LIMITS.
  const sizes = new Map<string, number>();
  let bytes = 0;
  const forget = (id: string) => {
    bytes -= sizes.get(id) ?? 0;
    sizes.delete(id);
    projects.delete(id);
  };
  const keep = (project: StoredProject) => {
    forget(project.id);
    const size = utf8.encode(JSON.stringify(project)).byteLength;
    projects.set(project.id, project);
    sizes.set(project.id, size);
    bytes += size;
    for (const oldest of projects.keys()) {
      if (projects.size <= PROJECT_LIMITS.projects && bytes <= PROJECT_LIMITS.bytes) break;
      forget(oldest);
    }
  };
  // Copies each time, so a test's edits to one run's projects never reach the next.
  const restoreSeed = () => {
    projects.clear();
    sizes.clear();
    bytes = 0;
    for (const project of seeded) keep(structuredClone(project));
  };
  restoreSeed();

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
      keep(project);
      return project;
    },
    put: (project) => {
      keep(structuredClone(project));
    },
    get: (id) => projects.get(id),
    list: () => [...projects.values()].map((project) => structuredClone(project)),
    reset: restoreSeed,
  };
}

const utf8 = new TextEncoder();
