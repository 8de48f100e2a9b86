/**
 * The sign-in front's memory store (oidc-provider's storage adapter): each model bounded, the
 * least recently used record going first; an unused registration expiring, a used one kept; a
 * grant's revocation reaching every record of its family.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_IDLE_TTL_S, memoryAdapter } from '../../../src/mcp/front/memory-store.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const DAY_MS = 24 * 3600 * 1000;

describe('the front’s memory store', () => {
  it('keeps at most its bound per model, the least recently used going first', async () => {
    const Adapter = memoryAdapter(3);
    const interactions = new Adapter('Interaction');
    const clients = new Adapter('Client');
    for (const id of ['a', 'b', 'c']) await interactions.upsert(id, { uid: id }, 600);
    await clients.upsert('kept', { client_id: 'kept' });
    // Used: now the most recent, so b goes when d comes.
    expect(await interactions.find('a')).toEqual({ uid: 'a' });
    await interactions.upsert('d', { uid: 'd' }, 600);
    expect(await interactions.find('b')).toBeUndefined();
    expect(await interactions.find('a')).toBeDefined();
    expect(await interactions.find('d')).toBeDefined();
    // Another model's bound is its own.
    expect(await clients.find('kept')).toBeDefined();
  });

  it('expires a registration nobody uses, and keeps one in use', async () => {
    const clients = new (memoryAdapter())('Client');
    await clients.upsert('idle', { client_id: 'idle' });
    await clients.upsert('used', { client_id: 'used' });
    vi.setSystemTime(Date.now() + CLIENT_IDLE_TTL_S * 1000 - DAY_MS);
    expect(await clients.find('used')).toBeDefined();
    vi.setSystemTime(Date.now() + 2 * DAY_MS);
    expect(await clients.find('idle')).toBeUndefined();
    expect(await clients.find('used')).toBeDefined();
  });

  it('expires each record at its lifetime', async () => {
    const codes = new (memoryAdapter())('AuthorizationCode');
    await codes.upsert('code', { grantId: 'g' }, 60);
    vi.setSystemTime(Date.now() + 59_000);
    expect(await codes.find('code')).toBeDefined();
    vi.setSystemTime(Date.now() + 2_000);
    expect(await codes.find('code')).toBeUndefined();
  });

  it('revokes every record of a grant, whatever its model', async () => {
    const Adapter = memoryAdapter();
    const refreshTokens = new Adapter('RefreshToken');
    const accessTokens = new Adapter('AccessToken');
    await refreshTokens.upsert('r1', { grantId: 'family' }, 600);
    await refreshTokens.upsert('r2', { grantId: 'family' }, 600);
    await accessTokens.upsert('a1', { grantId: 'family' }, 600);
    await refreshTokens.upsert('other', { grantId: 'other' }, 600);
    await refreshTokens.revokeByGrantId('family');
    for (const [adapter, id] of [
      [refreshTokens, 'r1'],
      [refreshTokens, 'r2'],
      [accessTokens, 'a1'],
    ] as const) {
      expect(await adapter.find(id)).toBeUndefined();
    }
    expect(await refreshTokens.find('other')).toBeDefined();
  });
});
