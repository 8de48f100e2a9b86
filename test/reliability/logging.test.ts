/**
 * Logging: off by default; `logger` and `logLevel` (or `AGENTCHAT_LOG`) turn it on; `debug` gives
 * one line per attempt with method, path, status, attempt and wait; secrets are redacted from
 * everything logged.
 */
import * as fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLog } from '../../src/core/logger.js';
import { Client, type Logger, type LogLevel } from '../../src/index.js';
import { createMockService, strictListen } from '../../src/testing/index.js';
import { propertyRuns, recordingLogger, settleWithFakeTimers } from '../helpers/reliability.js';

const apiKey = 'sk_live_3f7c9a1e5b2d4c6e8f0a1b2c';
const service = createMockService();
const server = setupServer(...service.handlers);

beforeAll(() => strictListen(server));
afterEach(() => {
  service.reset();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

function clientWith(options: { logLevel?: LogLevel; logger?: Logger }) {
  return new Client({ apiKey, baseUrl: service.baseUrl, ...options });
}

/** Spies on every console method the client could write to. */
function spyOnConsole() {
  return (['error', 'warn', 'info', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(() => {}),
  );
}

describe('logging is off by default', () => {
  it('writes nothing to the console, even when a call fails', async () => {
    vi.stubEnv('AGENTCHAT_LOG', '');
    const spies = spyOnConsole();
    service.enqueue({ kind: 'status', status: 404 });

    await expect(clientWith({}).projects.get('proj_x')).rejects.toThrow(/404/);

    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('writes nothing to a given logger without a level', async () => {
    vi.stubEnv('AGENTCHAT_LOG', '');
    const logger = recordingLogger();
    service.enqueue({ kind: 'status', status: 404 });

    await expect(clientWith({ logger }).projects.get('proj_x')).rejects.toThrow(/404/);

    expect(logger.lines).toEqual([]);
  });
});

describe('logLevel debug', () => {
  it('logs one line per attempt with method, path, status, attempt and wait', async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const client = clientWith({ logger, logLevel: 'debug' });
    service.enqueue(
      { kind: 'status', status: 503, headers: { 'retry-after-ms': '1500' } },
      { kind: 'network-error' },
    );

    const outcome = await settleWithFakeTimers(
      client.projects.create({ name: 'Logged', agentId: 'agent_1' }),
    );

    expect(outcome.ok).toBe(true);
    expect(logger.lines.map((line) => line.level)).toEqual(['debug', 'debug', 'debug']);
    const [first, second, third] = logger.lines.map((line) => line.text);
    expect(first).toMatch(
      /^agentchat: POST \/v1\/projects → 503 \(attempt 1\/3, \d+ ms\); retrying in 1500 ms/,
    );
    expect(second).toMatch(
      /^agentchat: POST \/v1\/projects → APIConnectionError \(attempt 2\/3, \d+ ms\); retrying in \d+ ms/,
    );
    expect(third).toMatch(/^agentchat: POST \/v1\/projects → 201 \(attempt 3\/3, \d+ ms\)/);
    expect(first).toContain('retryInMs: 1500');
    expect(first).toMatch(/attempt: 1,\s+maxAttempts: 3/);
    expect(third).toMatch(/status: 201/);
    expect(third).toMatch(/requestId: 'req_/);
  });

  it('passes the details as an object, for structured loggers', async () => {
    const debug = vi.fn();
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug };
    service.enqueue({ kind: 'status', status: 500, headers: { 'retry-after': '0' } });

    await clientWith({ logger, logLevel: 'debug' })
      .projects.get('proj_x')
      .catch(() => {});

    expect(debug).toHaveBeenCalledWith(expect.stringContaining('GET /v1/projects/proj_x → 500'), {
      method: 'GET',
      path: '/v1/projects/proj_x',
      status: 500,
      attempt: 1,
      maxAttempts: 3,
      durationMs: expect.any(Number),
      requestId: expect.stringMatching(/^req_/),
      retryInMs: 0,
      headers: expect.objectContaining({ authorization: '[redacted]', accept: 'application/json' }),
    });
  });
});

describe('levels', () => {
  it('info shows the call that failed for good, not the attempts before it', async () => {
    const logger = recordingLogger();
    service.enqueue(
      { kind: 'status', status: 503, headers: { 'retry-after': '0' } },
      { kind: 'status', status: 404 },
    );

    await clientWith({ logger, logLevel: 'info' })
      .projects.get('proj_x')
      .catch(() => {});

    expect(logger.lines.map((line) => [line.level, line.text.split(' (')[0]])).toEqual([
      ['info', 'agentchat: GET /v1/projects/proj_x → 404'],
    ]);
  });

  it.each(['error', 'warn', 'off'] as const)('%s stays quiet on a failed call', async (level) => {
    const logger = recordingLogger();
    service.enqueue({ kind: 'status', status: 404 });

    await clientWith({ logger, logLevel: level })
      .projects.get('proj_x')
      .catch(() => {});

    expect(logger.lines).toEqual([]);
  });
});

describe('AGENTCHAT_LOG', () => {
  it('turns debug logging on, to the console when no logger is given', async () => {
    vi.stubEnv('AGENTCHAT_LOG', 'debug');
    const [, , , debug] = spyOnConsole();

    await clientWith({}).projects.create({ name: 'Env', agentId: 'agent_1' });

    expect(debug).toHaveBeenCalledTimes(1);
    expect(debug?.mock.calls[0]?.[0]).toMatch(/^agentchat: POST \/v1\/projects → 201/);
  });

  it('gives way to the logLevel option', async () => {
    vi.stubEnv('AGENTCHAT_LOG', 'debug');
    const logger = recordingLogger();

    await clientWith({ logger, logLevel: 'off' }).projects.create({ name: 'Env', agentId: 'a' });

    expect(logger.lines).toEqual([]);
  });

  it('is ignored when it names no level', async () => {
    vi.stubEnv('AGENTCHAT_LOG', 'verbose');
    const logger = recordingLogger();

    await clientWith({ logger }).projects.create({ name: 'Env', agentId: 'a' });

    expect(logger.lines).toEqual([]);
  });
});

describe('redaction', () => {
  it('never logs the key, the Authorization header or key-like headers of the caller', async () => {
    const logger = recordingLogger();
    const client = new Client({
      apiKey,
      baseUrl: service.baseUrl,
      logger,
      logLevel: 'debug',
      headers: {
        'x-api-key': 'gateway-secret-1',
        'x-auth-token': 'gateway-secret-2',
        cookie: 'session=gateway-secret-3',
        'x-forwarded-for': 'Bearer gateway-secret-4',
        'x-trace': 'visible-trace-id',
      },
    });
    service.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });

    await client.chat.send({ projectId: 'proj_x', message: 'hi' }).catch(() => {});

    const text = logger.lines.map((line) => line.text).join('\n');
    expect(logger.lines).toHaveLength(2);
    expect(text).not.toContain(apiKey);
    expect(text).not.toMatch(/gateway-secret/);
    expect(text).toContain("authorization: '[redacted]'");
    expect(text).toContain("'x-api-key': '[redacted]'");
    expect(text).toContain("'x-forwarded-for': 'Bearer [redacted]'");
    // What is not secret stays readable: that is what the log is for.
    expect(text).toContain('visible-trace-id');
    expect(text).toMatch(/'idempotency-key': '[0-9a-f-]{36}'/);
  });

  it('hides every value under a secret-like name and every bearer token, at any depth', () => {
    const secretName = fc.constantFrom(
      'authorization',
      'Authorization',
      'proxy-authorization',
      'apiKey',
      'api_key',
      'x-api-key',
      'token',
      'accessToken',
      'client_secret',
      'password',
      'cookie',
      'set-cookie',
    );
    const secret = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).map((value) => `s3cr3t${value}`);
    // A detail object of ordinary values with secrets planted at random places in it.
    const planted = fc
      .tuple(
        fc.array(fc.tuple(secretName, secret), { minLength: 1, maxLength: 4 }),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
        fc.dictionary(
          fc
            .string({ maxLength: 8 })
            .filter((key) => !/auth|key|token|secret|password|cookie/i.test(key)),
          fc.jsonValue({ maxDepth: 2 }),
          { maxKeys: 4 },
        ),
      )
      .map(([secrets, path, ordinary]) => {
        const root: Record<string, unknown> = { ...ordinary };
        let node = root;
        for (const segment of path) {
          const child: Record<string, unknown> = {};
          node[`n_${segment}`] = [child];
          node = child;
        }
        for (const [name, value] of secrets) node[name] = value;
        return { root, secrets: secrets.map(([, value]) => value) };
      });

    fc.assert(
      fc.property(planted, secret, ({ root, secrets }, token) => {
        const lines: unknown[][] = [];
        const sink = (...args: unknown[]) => lines.push(args);
        const log = createLog({ error: sink, warn: sink, info: sink, debug: sink }, 'debug');
        if (!log) throw new Error('a debug-level log must exist');

        log('debug', `sent with Authorization: Bearer ${token}`, root);

        const written = JSON.stringify(lines);
        for (const value of [...secrets, token]) expect(written).not.toContain(value);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
