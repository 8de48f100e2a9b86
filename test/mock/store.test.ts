import { describe, expect, it } from 'vitest';
import { createProjectStore } from '../../src/testing/store/projects.js';

describe('project store', () => {
  it('creates active projects with proj_ ids and ISO timestamps', () => {
    const store = createProjectStore();
    const project = store.create({ name: 'Demo', agentId: 'agent_1' });

    expect(project).toEqual({
      id: expect.stringMatching(/^proj_[A-Za-z0-9]{24}$/),
      name: 'Demo',
      agentId: 'agent_1',
      status: 'active',
      metadata: {},
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(store.get(project.id)).toBe(project);
  });

  it('gives every project its own id', () => {
    const store = createProjectStore();
    const ids = Array.from({ length: 200 }, () => store.create({ name: 'n', agentId: 'a' }).id);

    expect(new Set(ids).size).toBe(200);
  });

  it('keeps its own copy of the metadata', () => {
    const store = createProjectStore();
    const metadata = { seats: 1 };
    const project = store.create({ name: 'n', agentId: 'a', metadata });
    metadata.seats = 2;

    expect(store.get(project.id)?.metadata).toEqual({ seats: 1 });
  });

  it('lists oldest first and resets to empty', () => {
    const store = createProjectStore();
    store.create({ name: 'first', agentId: 'a' });
    store.create({ name: 'second', agentId: 'a' });

    expect(store.list().map((project) => project.name)).toEqual(['first', 'second']);
    store.reset();
    expect(store.list()).toEqual([]);
  });

  it('resets to its seeded projects, as they were, edits and additions undone', () => {
    const seeded = {
      id: 'proj_seed',
      name: 'Seed',
      agentId: 'a',
      status: 'active',
      metadata: { n: 1 },
      createdAt: '2026-01-31T09:30:00Z',
    };
    const store = createProjectStore([seeded]);
    const held = store.get('proj_seed');
    if (held) held.metadata.n = 2;
    store.create({ name: 'added', agentId: 'a' });
    store.put({ ...seeded, id: 'proj_put' });

    expect(store.list().map((project) => project.id)).toEqual([
      'proj_seed',
      expect.any(String),
      'proj_put',
    ]);
    store.reset();
    expect(store.list()).toEqual([seeded]);
  });
});
