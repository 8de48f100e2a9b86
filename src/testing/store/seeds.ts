import { ConfigurationError } from '../../core/errors/configuration-error.js';
import {
  checkFields,
  jsonObject,
  nonEmptyString,
  optional,
  projectId,
  utcTimestamp,
} from '../http/body-fields.js';
import { assertKnownOptions } from '../options.js';
import { randomId } from './ids.js';
import type { StoredProject } from './projects.js';

/**
 * A project the mock holds before the first request, and again after each `reset()`: the
 * fixture a test would otherwise create through the API.
 *
 * @example
 * ```ts
 * const seed: ProjectSeed = { id: 'proj_support', name: 'Support', agentId: 'agent_support' };
 * const mock = createMockService({ projects: [seed] });
 * ```
 */
export interface ProjectSeed {
  /**
   * `proj_` followed by letters, digits, `_` or `-`.
   *
   * @default a random id, made once, so it stays the same after `reset()`
   */
  id?: string;
  /** The project's name. */
  name: string;
  /** The agent the project is bound to. */
  agentId: string;
  /**
   * Free-form JSON object.
   *
   * @default {}
   */
  metadata?: Record<string, unknown>;
  /**
   * The project's status.
   *
   * @default 'active'
   */
  status?: string;
  /**
   * ISO 8601 UTC creation time, such as `2026-01-31T09:30:00Z`.
   *
   * @default the time the mock was created
   */
  createdAt?: string;
}

/** The service's rules for each field of a seed. */
const SEED_FIELDS = {
  id: optional(projectId),
  name: nonEmptyString,
  agentId: nonEmptyString,
  metadata: optional(jsonObject),
  status: optional(nonEmptyString),
  createdAt: optional(utcTimestamp),
};

/**
 * Checks the seeds and completes them into stored projects, ids and times made once here, so
 * every `reset()` restores exactly the same store.
 *
 * @throws ConfigurationError naming the seed and the field, such as
 * `projects[1].agentId: expected a non-empty string, got nothing`, an unknown field (with a
 * "did you mean"), or a repeated id.
 * @example
 * ```ts
 * seedProjects([{ name: 'Support', agentId: 'agent_support' }]);
 * // [{ id: 'proj_...', name: 'Support', agentId: 'agent_support', status: 'active', metadata: {}, createdAt: '...' }]
 * ```
 */
export function seedProjects(seeds: readonly ProjectSeed[] | undefined): StoredProject[] {
  if (seeds === undefined) return [];
  if (!Array.isArray(seeds)) {
    throw new ConfigurationError(`projects must be an array of project seeds, got ${typeof seeds}`);
  }
  const now = new Date().toISOString();
  const ids = new Set<string>();
  return seeds.map((seed, index) => {
    const name = `projects[${index}]`;
    const checked = checkFields(seed, SEED_FIELDS, name);
    if (!checked.ok) throw new ConfigurationError(checked.message);
    // A misspelt optional field would otherwise vanish without a word.
    assertKnownOptions(seed, Object.keys(SEED_FIELDS), name, 'field');
    const { fields } = checked;
    const id = fields.id ?? randomId('proj');
    if (ids.has(id))
      throw new ConfigurationError(`${name}.id: ${JSON.stringify(id)} is already taken`);
    ids.add(id);
    return {
      id,
      name: fields.name,
      agentId: fields.agentId,
      status: fields.status ?? 'active',
      // A copy: the test editing its seed object afterwards must not change the store.
      metadata: structuredClone(fields.metadata ?? {}),
      createdAt: fields.createdAt ?? now,
    };
  });
}
