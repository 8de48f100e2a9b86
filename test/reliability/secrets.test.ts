/**
 * The API key stays out of everything a user can print: errors (message, stack, JSON, inspect,
 * cause chain), log lines and the client. The property in faults.test.ts checks this under every
 * fault; these are the hostile cases worth naming one by one.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIError, Client } from '../../src/index.js';
import { createMockService, strictListen } from '../../src/testing/index.js';
import { leaksOf, recordingLogger } from '../helpers/reliability.js';

const apiKey = 'sk_live_d41d8cd98f00b204e9800998ecf8427e';
const service = createMockService();
const server = setupServer(...service.handlers);

beforeAll(() => strictListen(server));
afterEach(() => service.reset());
afterAll(() => server.close());

function newClient() {
  const logger = recordingLogger();
  const client = new Client({
    apiKey,
    baseUrl: service.baseUrl,
    maxRetries: 0,
    logger,
    logLevel: 'debug',
  });
  return { client, logger };
}

describe('a server that echoes the key back', () => {
  it('cannot make an error show it through a response header', async () => {
    const { client, logger } = newClient();
    service.enqueue({
      kind: 'status',
      status: 400,
      headers: { 'x-debug-authorization': `Bearer ${apiKey}` },
    });

    const error = await client.projects.get('proj_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    expect(leaksOf(error, apiKey)).toEqual([]);
    expect((error as APIError).headers.get('x-debug-authorization')).toBe('Bearer [redacted]');
    expect(logger.lines.filter((line) => line.text.includes(apiKey))).toEqual([]);
  });

  it('cannot make an error show it through the body', async () => {
    const { client } = newClient();
    service.enqueue({
      kind: 'status',
      status: 401,
      body: { error: { type: 'authentication_error', message: `unknown key ${apiKey}` } },
    });

    const error = await client.projects.get('proj_1').catch((e: unknown) => e);

    expect(leaksOf(error, apiKey)).toEqual([]);
    expect((error as APIError).message).toContain('unknown key [redacted]');
  });

  it('keeps response headers that do not echo it as they came', async () => {
    const { client } = newClient();
    service.enqueue({ kind: 'status', status: 400, headers: { 'x-trace': 'abc' } });

    const error = (await client.projects.get('proj_1').catch((e: unknown) => e)) as APIError;

    expect(error.headers.get('x-trace')).toBe('abc');
    expect(error.requestId).toMatch(/^req_/);
  });
});

describe('the client itself', () => {
  it('shows no key when inspected or serialised', () => {
    const { client } = newClient();
    expect(leaksOf(client, apiKey)).toEqual([]);
    expect(leaksOf(client.projects, apiKey)).toEqual([]);
    expect(leaksOf(client.chat, apiKey)).toEqual([]);
  });
});
