import { describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { create, errorOf } from '../helpers/send-to-mock.js';

describe('authentication', () => {
  it('accepts any non-empty key by default', async () => {
    const mock = createMockService();

    expect((await create(mock, { authorization: 'Bearer whatever' })).status).toBe(201);
    expect((await create(mock, { authorization: 'Bearer ' })).status).toBe(401);
  });

  it('accepts only the listed keys, and none from an empty list', async () => {
    const listed = createMockService({ apiKeys: ['sk_a', 'sk_b'] });
    expect((await create(listed, { authorization: 'Bearer sk_b' })).status).toBe(201);
    expect((await create(listed, { authorization: 'Bearer sk_c' })).status).toBe(401);

    const none = createMockService({ apiKeys: [] });
    expect((await create(none, { authorization: 'Bearer sk_a' })).status).toBe(401);
  });

  it('reads the scheme case-insensitively and refuses other schemes', async () => {
    const mock = createMockService();

    expect((await create(mock, { authorization: 'bearer sk_unit' })).status).toBe(201);
    const basic = await errorOf(await create(mock, { authorization: 'Basic dXNlcjpwYXNz' }));
    expect(basic).toMatchObject({ type: 'authentication_error', message: /Malformed/ });
    expect((await create(mock, { authorization: 'Bearer two words' })).status).toBe(401);
  });
});
