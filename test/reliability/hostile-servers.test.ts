/**
 * Hostile servers and careless configurations, one named case each, over a real socket: bodies
 * past the limit (plain, gzip, deflate, a lying Content-Length), waits a server asks for, secrets
 * a server echoes, answers too deep or too long to print, and options that would send the key
 * somewhere it should not go. The property suite beside it (hostile-servers.property.test.ts)
 * throws random servers at the same rules.
 */
import type { ServerResponse } from 'node:http';
import { constants, createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AgentChatError,
  APIError,
  APITimeoutError,
  Client,
  clientCredentials,
  OAuthError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../../src/index.js';
import { json, project, startHostileServer } from '../helpers/hostile-server.js';
import { leaksOf, recordingLogger } from '../helpers/reliability.js';

const apiKey = 'sk_live_0f9e8d7c6b5a4f3e2d1c0b9a';
const server = await startHostileServer();
afterAll(() => server.close());

/**
 * Writes `total` zero bytes through `encoder` (or as they are), 64 KiB at a time and only as
 * fast as the client reads, stopping when it goes away. Resolves with how many were produced.
 */
function streamZeros(
  res: ServerResponse,
  total: number,
  encoding?: 'gzip' | 'deflate' | 'br',
): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024);
  const encoder =
    encoding === 'gzip'
      ? createGzip({ level: constants.Z_BEST_COMPRESSION })
      : encoding === 'deflate'
        ? createDeflate()
        : encoding === 'br'
          ? createBrotliCompress()
          : undefined;
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  const sink = encoder ?? res;
  if (encoder) encoder.pipe(res);
  return new Promise((resolve) => {
    let produced = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(produced);
    };
    res.on('close', finish);
    const pump = () => {
      while (!done && produced < total) {
        produced += chunk.length;
        if (!sink.write(chunk)) {
          sink.once('drain', pump);
          return;
        }
      }
      if (produced >= total) sink.end();
    };
    pump();
  });
}

function newClient(options: Partial<ConstructorParameters<typeof Client>[0]> = {}) {
  return new Client({ apiKey, baseUrl: server.baseUrl, ...options });
}

/** A client whose token endpoint is the hostile server itself. */
function oauthClient() {
  return new Client({
    baseUrl: server.baseUrl,
    apiKey: clientCredentials({
      tokenUrl: `${server.baseUrl}/oauth/token`,
      clientId: 'svc',
      clientSecret: 'cs_test_secret',
    }),
  });
}

describe('a body past maxResponseBytes', () => {
  it.each([
    ['plain', undefined],
    ['gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['brotli', 'br'],
  ] as const)(
    '(%s, 1 GiB) ends the call with ResponseTooLargeError, read no further and not retried',
    async (_name, encoding) => {
      let produced: Promise<number> = Promise.resolve(0);
      server.answer((_req, res) => {
        produced = streamZeros(res, 1024 ** 3, encoding);
      });
      const limit = 1024 * 1024;

      const error = await newClient()
        .projects.get('proj_1', { maxResponseBytes: limit })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ limit, status: 200 });
      expect(server.requests).toBe(1);
      // The client stopped reading: the server produced a few MiB of its gigabyte at most.
      expect(await produced).toBeLessThan(64 * 1024 * 1024);
    },
  );

  it('holds memory to the limit: the default 10 MiB against a gzip of a gigabyte', async () => {
    let produced: Promise<number> = Promise.resolve(0);
    server.answer((_req, res) => {
      produced = streamZeros(res, 1024 ** 3, 'gzip');
    });
    const before = process.memoryUsage().rss;

    const error = await newClient()
      .projects.get('proj_1')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(10 * 1024 * 1024);
    expect(await produced).toBeLessThan(128 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('fails before reading when Content-Length already says so', async () => {
    let closedEarly = false;
    server.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 50_000_000 });
      res.write('{"id":"');
      res.on('close', () => {
        closedEarly = !res.writableFinished;
      });
    });

    const error = await newClient()
      .projects.get('proj_1', { maxResponseBytes: 1000 })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await expect.poll(() => closedEarly).toBe(true);
  });

  it('reads a body exactly at the limit', async () => {
    const body = JSON.stringify(project);
    server.answer((_req, res) => json(res, 200, body));

    await expect(
      newClient().projects.get('proj_1', { maxResponseBytes: Buffer.byteLength(body) }),
    ).resolves.toMatchObject({ id: 'proj_1' });
  });

  it('decodes a character split between chunks of the body whole', async () => {
    const reply = { message: 'caf\u00e9 \u20ac \u{1f600}', suggestions: [] };
    const bytes = new TextEncoder().encode(JSON.stringify(reply));
    // Each cut falls inside a character: the second byte of é, of €, and the third of the emoji.
    const cuts = [0xc3, 0xe2, 0xf0].map((lead, i) => bytes.indexOf(lead) + 1 + i);
    const chunks = [0, ...cuts].map((start, i) => bytes.slice(start, cuts[i]));
    // A fetch of its own, since a socket may join what a server writes apart.
    const fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const client = new Client({ apiKey, baseUrl: server.baseUrl, fetch });

    expect(chunks).toHaveLength(4);
    await expect(client.chat.send({ projectId: 'proj_1', message: 'Hi' })).resolves.toEqual(reply);
  });

  it('caps a token response at 64 KiB, whatever the client allows', async () => {
    server.answer((_req, res) =>
      json(res, 200, { access_token: 'x'.repeat(70_000), token_type: 'Bearer' }),
    );
    const client = oauthClient();

    const error = await client.projects.get('proj_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(64 * 1024);
    expect(server.requests).toBe(1);
  });
});

describe('a token endpoint answering an access_token that cannot be sent', () => {
  it.each([
    ['a trailing space', 'at_9a8b7c6d5e4f ', 'character 16 is U+0020'],
    ['a trailing line break', 'at_9a8b7c6d5e4f\n', 'character 16 is U+000A'],
    ['a character above U+00FF', 'at_9a8b7c\u0100d5e4f', 'character 10 is U+0100'],
    ['a BEL', 'at_9a8b7c\u0007d5e4f', 'character 10 is U+0007'],
    ['a space inside', 'at_9a8b7c d5e4f', 'character 10 is U+0020'],
    ['padding before the end', 'at_9a=8b7c', 'character 6 is U+003D'],
    ['an empty string', '', 'it is empty'],
    ['a number', 42, 'it is number, not a string'],
  ])(
    '(%s) fails the call with OAuthError naming the endpoint, then asks it again',
    async (_name, bad, problem) => {
      const good = 'at_0f1e2d3c4b5a';
      server.answer((req, res, index) => {
        if (req.url?.endsWith('/oauth/token')) {
          json(res, 200, {
            access_token: index === 0 ? bad : good,
            token_type: 'Bearer',
            expires_in: 3600,
          });
        } else {
          json(res, 200, { ...project, seen: req.headers.authorization });
        }
      });
      const client = oauthClient();

      const error = await client.projects.get('proj_1').catch((e: unknown) => e);

      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).status).toBe(200);
      expect((error as Error).message).toContain(
        'token endpoint answered an access_token that cannot be sent',
      );
      expect((error as Error).message).toContain(problem);
      expect((error as Error).message).not.toContain('apiKey function');
      if (typeof bad === 'string' && bad !== '') expect(leaksOf(error, bad)).toEqual([]);
      // Only the token request went out; the token was not kept: the next call asks again.
      expect(server.requests).toBe(1);
      await expect(client.projects.get('proj_1')).resolves.toMatchObject({
        seen: `Bearer ${good}`,
      });
      expect(server.requests).toBe(3);
    },
  );

  it('takes every RFC 6750 b64token character, padding included', async () => {
    const token = 'AZaz09-._~+/==';
    server.answer((req, res) =>
      req.url?.endsWith('/oauth/token')
        ? json(res, 200, { access_token: token, token_type: 'Bearer' })
        : json(res, 200, { ...project, seen: req.headers.authorization }),
    );

    await expect(oauthClient().projects.get('proj_1')).resolves.toMatchObject({
      seen: `Bearer ${token}`,
    });
  });
});

describe('waits', () => {
  it('ignores Retry-After: -1 and backs off as usual', async () => {
    const times: number[] = [];
    server.answer((_req, res, index) => {
      times.push(Date.now());
      if (index === 0) json(res, 503, {}, { 'retry-after': '-1' });
      else json(res, 200, project);
    });

    await newClient({ maxRetries: 1 }).projects.get('proj_1');

    // The policy's first backoff, 500 ms less up to a quarter of jitter; not 5 ms.
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(370);
  });

  it('ends the call with APITimeoutError at once when the next wait would pass totalTimeout', async () => {
    server.answer((_req, res) => json(res, 503, {}, { 'retry-after-ms': '59999' }));
    const started = Date.now();

    const error = await newClient({ timeout: 2000, totalTimeout: 3000 })
      .projects.get('proj_1')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toContain('3000 ms for the whole call');
    // At once: well short of the minute the server asked for, however loaded the machine.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(server.requests).toBe(1);
  });

  it('ends an attempt still running when totalTimeout runs out, per call', async () => {
    server.answer(() => {
      // Never answers.
    });
    const started = Date.now();

    const error = await newClient({ timeout: 10_000 })
      .projects.get('proj_1', { totalTimeout: 300 })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toContain('300 ms for the whole call');
    // Well short of the attempt's own 10 s timeout, however loaded the machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('secrets a server echoes', () => {
  it('redacts every token of a token response that failed validation', async () => {
    const accessToken = 'at_9a8b7c6d5e4f3a2b1c0d';
    const refreshToken = 'rt_1a2b3c4d5e6f7a8b9c0d';
    server.answer((_req, res) =>
      json(res, 200, {
        access_token: accessToken,
        refresh_token: refreshToken,
        token_type: 'mac',
        expires_in: 'soon',
      }),
    );
    const client = oauthClient();

    const error = await client.projects.get('proj_1').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toMatchObject({
      access_token: '[redacted]',
      refresh_token: '[redacted]',
      token_type: 'mac',
    });
    expect(leaksOf(error, accessToken)).toEqual([]);
    expect(leaksOf(error, refreshToken)).toEqual([]);
  });

  it.each([
    ['a short key', 'k1'],
    ['a key holding " and \\', 'sk_"quoted"\\slash'],
    ['a key with URL-special characters', 'sk_a/b+c=d&e'],
  ])('redacts %s in the body, the headers, the request id and the logs', async (_name, key) => {
    const escaped = JSON.stringify(key).slice(1, -1);
    server.answer((_req, res) =>
      res
        .writeHead(400, {
          'content-type': 'application/json',
          'x-request-id': `req_${key}`,
          'x-echo': encodeURIComponent(key),
        })
        .end(`{"error":{"message":"bad key ${escaped} (${encodeURIComponent(key)})"}}`),
    );
    const logger = recordingLogger();

    const error = await newClient({ apiKey: key, logger, logLevel: 'debug' })
      .projects.get('proj_1')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIError);
    const apiError = error as APIError;
    expect(apiError.message).toContain('bad key [redacted] ([redacted])');
    expect(apiError.requestId).toBe('req_[redacted]');
    expect(apiError.headers.get('x-echo')).toBe('[redacted]');
    for (const form of [key, escaped, encodeURIComponent(key)]) {
      expect(leaksOf(error, form)).toEqual([]);
      expect(logger.lines.filter((line) => line.text.includes(form))).toEqual([]);
    }
  });

  it('keeps a request id only when it looks like one', async () => {
    // Too long to read out to a support desk, and a character outside printable ASCII.
    const ids = ['req_ok', 'x'.repeat(201), 'req_\u00e9'];
    const seen: (string | undefined)[] = [];
    for (const id of ids) {
      server.answer((_req, res) => json(res, 404, {}, { 'x-request-id': id }));
      const error = (await newClient()
        .projects.get('proj_1')
        .catch((e: unknown) => e)) as APIError;
      seen.push(error.requestId);
    }
    expect(seen).toEqual(['req_ok', undefined, undefined]);
  });
});

describe('answers no reader could print', () => {
  it('cuts a megabyte echoed by a 431 to a message of at most 1,000 characters', async () => {
    const id = 'p'.repeat(1024 * 1024);
    server.answer((req, res) => json(res, 431, { error: { message: `too long: ${req.url}` } }));

    const error = (await newClient()
      .projects.get(id)
      .catch((e: unknown) => e)) as APIError;

    expect(error).toBeInstanceOf(APIError);
    expect(error.message.length).toBeLessThanOrEqual(1000);
    expect(error.message).toContain('…');
    expect(error.message).toMatch(/^GET \/v1\/projects\/p{10}/);
  });

  it.each([
    [200, ResponseValidationError],
    [400, APIError],
  ] as const)(
    'reads JSON nested 100,000 deep answered with %i as an SDK error, never a RangeError',
    async (status, ErrorClass) => {
      const depth = 100_000;
      server.answer((_req, res) => json(res, status, `${'['.repeat(depth)}${']'.repeat(depth)}`));

      const error = await newClient()
        .projects.get('proj_1')
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ErrorClass);
      // Printing it is safe, however it is printed.
      expect(() => JSON.stringify(error)).not.toThrow();
      expect(typeof (error as { body: unknown }).body).toBe('string');
    },
  );
});

describe('inputs that would throw a raw error', () => {
  /** Creates a project with `metadata`, expecting a RequestValidationError and nothing sent. */
  async function createRefused(metadata: Record<string, unknown>): Promise<unknown> {
    server.answer((_req, res) => json(res, 201, project));
    const error = await newClient()
      .projects.create({ name: 'n', agentId: 'a', metadata })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(server.requests).toBe(0);
    return error;
  }

  it('refuses metadata nested 9,000 deep with RequestValidationError, sending nothing', async () => {
    let metadata: Record<string, unknown> = {};
    for (let i = 0; i < 9000; i++) metadata = { next: metadata };
    const error = await createRefused(metadata);
    expect((error as Error).message).toContain('nested deeper than 64 levels');
  });

  it('refuses metadata that throws while read (a Proxy) with RequestValidationError', async () => {
    const metadata = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys for you');
        },
      },
    );
    const error = await createRefused(metadata);
    expect((error as Error).message).toContain('could not be read: no keys for you');
  });
});

describe('careless configuration', () => {
  it.each([
    'https://host/api\r\nX: y',
    'https://host/api\tx',
    'https://host/ api',
    'https://host/api\u0000',
  ])(
    'refuses a baseUrl holding whitespace or control characters (%j), never rewriting it',
    (baseUrl) => {
      expect(() => new Client({ apiKey, baseUrl })).toThrow(
        /must not contain whitespace or control characters/,
      );
    },
  );

  it.each([
    ['blank', '   '],
    ['padded', ' sk-abc '],
    ['ending in a line feed', 'sk-abc\n'],
  ])('refuses a %s apiKey without echoing it', (_name, key) => {
    let error: unknown;
    try {
      new Client({ apiKey: key, baseUrl: server.baseUrl });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentChatError);
    expect((error as Error).message).toMatch(
      /apiKey: expected a non-empty string without surrounding whitespace/,
    );
    if (key.trim() !== '') expect(leaksOf(error, key.trim())).toEqual([]);
  });

  it('warns once, at the default level, about plain http to another host', () => {
    const logger = recordingLogger();
    new Client({ apiKey, baseUrl: 'http://agentchat.example.com/api', logger });

    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({ level: 'warn' });
    expect(logger.lines[0]?.text).toContain('travels in clear text');
    expect(logger.lines[0]?.text).not.toContain(apiKey);
  });

  it.each([
    'https://agentchat.example.com/api',
    'http://localhost:8080/api',
    'http://127.0.0.1:8080/api',
    'http://[::1]:8080/api',
    'http://app.localhost/api',
  ])('says nothing about %s', (baseUrl) => {
    const logger = recordingLogger();
    new Client({ apiKey, baseUrl, logger });
    expect(logger.lines).toEqual([]);
  });
});
