/**
 * The Idempotency-Key records are bounded whatever a client sends (docs/testing.md#limits): the
 * latest 10,000 keys and 16 MiB of answers, the oldest forgotten first. A mock serving for hours
 * under a client that sends a fresh key with every POST keeps no more.
 */
import { describe, expect, it } from 'vitest';
import {
  createIdempotencyRecords,
  IDEMPOTENCY_LIMITS,
} from '../../src/testing/store/idempotency.js';

const request = (key: string) => ({ key, method: 'POST', path: '/v1/projects', fingerprint: 'f' });
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
