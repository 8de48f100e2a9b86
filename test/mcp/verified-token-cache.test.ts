/**
 * The verified-token cache of agentchat/mcp's authorization: bounded, least recently used out
 * first, each token kept until it expires, and keyed by a hash that never is the token.
 */
import { describe, expect, it } from 'vitest';
import {
  tokenKey,
  type VerifiedToken,
  VerifiedTokenCache,
} from '../../src/mcp/verified-token-cache.js';

const verified = (clientId: string, expiresAt = 2_000): VerifiedToken => ({
  clientId,
  scopes: ['agentchat:read'],
  expiresAt,
});

describe('the verified-token cache', () => {
  it('drops the least recently used token when full', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', verified('a'));
    cache.set('b', verified('b'));
    expect(cache.get('a', 1_000)?.clientId).toBe('a');
    cache.set('c', verified('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('b', 1_000)).toBeUndefined();
    expect(cache.get('a', 1_000)?.clientId).toBe('a');
    expect(cache.get('c', 1_000)?.clientId).toBe('c');
  });

  it('forgets a token once it has expired', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', verified('a', 1_500));
    expect(cache.get('a', 1_499)?.clientId).toBe('a');
    expect(cache.get('a', 1_500)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keys a token by its SHA-256, which does not hold the token', async () => {
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
    const key = await tokenKey(token);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toBe(await tokenKey(token));
    expect(key).not.toBe(await tokenKey(`${token}x`));
    // Node's synchronous hash here; Web Crypto's where there is no node:crypto: the same key.
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
    expect(key).toBe(Buffer.from(digest).toString('hex'));
  });
});
