/**
 * What the mock keeps is bounded whatever clients send (docs/testing.md#limits), the oldest
 * forgotten first: the Idempotency-Key records (10,000 keys, 16 MiB of answers), the projects
 * (10,000, 32 MiB), the issued tokens (10,000). A mock serving for hours under a client that sends
 * a fresh key with every POST, creates projects in a loop or asks for a token each time keeps no
 * more.
 */
import { describe, expect, it } from 'vitest';
import {
  createIdempotencyRecords,
  IDEMPOTENCY_LIMITS,
} from '../../src/testing/store/idempotency.js';
import { createProjectStore, PROJECT_LIMITS } from '../../src/testing/store/projects.js';
import { createTokenStore, TOKEN_LIMIT } from '../../src/testing/store/tokens.js';

const request = (key: string) => ({
  caller: 'api-key sk_test',
  key,
  method: 'POST',
  path: '/v1/projects',
  fingerprint: 'f',
});
const answer = (bytes: number) => new Response(new Uint8Array(bytes), { status: 201 });

describe('Idempotency-Key records', () => {
  it(`keep the latest ${IDEMPOTENCY_LIMITS.keys} keys, forgetting the oldest first`, async () => {
    const records = createIdempotencyRecords();
    for (let i = 0; i <= IDEMPOTENCY_LIMITS.keys; i++)
      await records.save(request(`k${i}`), answer(1));
    expect(records.check(request('k0'))).toEqual({ kind: 'new' });
    expect(records.check(request('k1')).kind).toBe('replay');
    expect(records.check(request(`k${IDEMPOTENCY_LIMITS.keys}`)).kind).toBe('replay');
  });

  it('keep at most 16 MiB of answers, and none larger than all of it', async () => {
    const records = createIdempotencyRecords();
    const MiB = 1024 * 1024;
    for (let i = 0; i < 17; i++) await records.save(request(`m${i}`), answer(MiB));
    // 17 MiB of answers: the first is forgotten so that 16 MiB remain.
    expect(records.check(request('m0'))).toEqual({ kind: 'new' });
    expect(records.check(request('m1')).kind).toBe('replay');
    await records.save(request('huge'), answer(IDEMPOTENCY_LIMITS.bytes + 1));
    expect(records.check(request('huge'))).toEqual({ kind: 'new' });
    // And the answers kept before it are still there.
    expect(records.check(request('m16')).kind).toBe('replay');
  });
});

describe('the project store', () => {
  it(`keeps the latest ${PROJECT_LIMITS.projects} projects, forgetting the oldest first`, () => {
    const store = createProjectStore();
    const ids = [];
    for (let i = 0; i <= PROJECT_LIMITS.projects; i++) {
      ids.push(store.create({ name: `p${i}`, agentId: 'a' }).id);
    }
    expect(store.get(ids[0] as string)).toBeUndefined();
    expect(store.get(ids[1] as string)?.name).toBe('p1');
    expect(store.list()).toHaveLength(PROJECT_LIMITS.projects);
  });

  it('keeps at most 32 MiB of projects, whatever their metadata weighs', () => {
    const store = createProjectStore();
    const metadata = { blob: 'x'.repeat(2 * 1024 * 1024) };
    const ids = Array.from(
      { length: 20 },
      (_, i) => store.create({ name: `m${i}`, agentId: 'a', metadata }).id,
    );
    const kept = store.list();
    const size = kept.reduce((total, project) => total + JSON.stringify(project).length, 0);
    expect(size).toBeLessThanOrEqual(PROJECT_LIMITS.bytes);
    expect(kept.length).toBeGreaterThanOrEqual(14);
    expect(store.get(ids[0] as string)).toBeUndefined();
    expect(store.get(ids[19] as string)?.name).toBe('m19');
  });

  it('restores the seeded projects on reset, whatever was forgotten', () => {
    const seed = {
      id: 'proj_seed',
      name: 'Seed',
      agentId: 'a',
      status: 'active',
      metadata: {},
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    const store = createProjectStore([seed]);
    for (let i = 0; i < PROJECT_LIMITS.projects; i++) store.create({ name: `p${i}`, agentId: 'a' });
    expect(store.get('proj_seed')).toBeUndefined();
    store.reset();
    expect(store.list()).toEqual([seed]);
  });
});

describe('the token store', () => {
  it(`keeps the latest ${TOKEN_LIMIT} tokens; an older one is unknown, as a forged one`, () => {
    const store = createTokenStore(60_000);
    const tokens = [];
    for (let i = 0; i <= TOKEN_LIMIT; i++)
      tokens.push(store.issue({ clientId: 'c', grant: 'client-credentials' }).accessToken);
    expect(store.status(tokens[0] as string)).toBe('unknown');
    expect(store.status(tokens[1] as string)).toBe('valid');
    expect(store.list()).toHaveLength(TOKEN_LIMIT);
  });
});
