import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientOptionsSchema } from '../../src/core/options.js';
import {
  AgentChatError,
  APIUserAbortError,
  AuthenticationError,
  Client,
  type Middleware,
  NotFoundError,
  retryDefaults,
} from '../../src/index.js';
import { API_KEY, useMockService } from '../helpers/use-mock-service.js';

const { mock, client } = useMockService({ apiKeys: [API_KEY] });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('configuration', () => {
  it('reads apiKey and baseUrl from the environment', async () => {
    vi.stubEnv('AGENTCHAT_API_KEY', API_KEY);
    vi.stubEnv('AGENTCHAT_BASE_URL', mock.baseUrl);
    const project = await new Client().projects.create({ name: 'P', agentId: 'a' });
    expect(project.id).toMatch(/^proj_/);
  });

  it('names the option and its environment variable when the key is missing', () => {
    vi.stubEnv('AGENTCHAT_API_KEY', '');
    expect(() => new Client({ baseUrl: mock.baseUrl })).toThrow(AgentChatError);
    expect(() => new Client({ baseUrl: mock.baseUrl })).toThrow(
      /apiKey option .* AGENTCHAT_API_KEY/,
    );
  });

  it('names the option and its environment variable when the base URL is missing', () => {
    vi.stubEnv('AGENTCHAT_BASE_URL', '');
    expect(() => new Client({ apiKey: API_KEY })).toThrow(/baseUrl option .* AGENTCHAT_BASE_URL/);
  });

  it.each([
    [{ baseUrl: 'not a url' }, /Invalid baseUrl/],
    [{ baseUrl: 'ftp://host/api' }, /http or https/],
    [{ baseUrl: 'https://host/api?x=1' }, /query/],
    [{ maxRetries: -1 }, /maxRetries: must be at least 0$/],
    [{ maxRetries: 1.5 }, /maxRetries: expected an integer, received 1.5$/],
    [{ maxRetries: Number.POSITIVE_INFINITY }, /maxRetries: expected a number, received Infinity$/],
    [{ timeout: 0 }, /timeout: must be greater than 0$/],
    [{ timeout: 'fast' }, /timeout: expected a number, received string$/],
    [{ timeout: Number.NaN }, /timeout: expected a number, received NaN$/],
    [{ totalTimeout: 2 ** 31 }, /totalTimeout: must be at most 2147483647$/],
    // One wording for a bad key, whether the option or a key function returned it.
    [{ apiKey: '' }, /apiKey: expected a non-empty string .+; received an empty string$/],
    [
      { apiKey: ' sk_key' },
      /apiKey: expected a non-empty string without surrounding whitespace, .+, or a function returning one; received a string with whitespace at its start or end$/,
    ],
    [
      { apiKey: 'sk\nInjected: 1' },
      /apiKey: .+line breaks.+; received a string whose character 3 is U\+000A, which a header cannot carry$/,
    ],
    [{ apiKey: 42 }, /apiKey: .+, or a function returning one; received number$/],
    [{ headers: { 'bad name': 'x' } }, /headers.bad name: is not a valid header name/],
    [{ fetch: 'nope' }, /fetch/],
    [{ logLevel: 'loud' }, /logLevel/],
    [{ unknownOption: true }, /unknownOption: is not a known field$/],
    [{ timout: 5_000 }, /timout: is not a known field; did you mean timeout\?/],
    [{ MaxRetries: 1 }, /MaxRetries: is not a known field; did you mean maxRetries\?/],
    // Each also contains `fetch`, an option name too; the nearer name wins.
    [{ fetchOption: {} }, /fetchOption: is not a known field; did you mean fetchOptions\?/],
    [{ fetchoptions: {} }, /fetchoptions: is not a known field; did you mean fetchOptions\?/],
    [{ fetchOptins: {} }, /fetchOptins: is not a known field; did you mean fetchOptions\?/],
    [{ baseUrl: 'https://host/api/v1' }, /drop the trailing \/v1 \(use "https:\/\/host\/api"\)/],
    [{ baseUrl: 'https://host/v1/' }, /drop the trailing \/v1/],
    [{ middleware: [42] }, /middleware.0: expected a function/],
    [
      { retryBudget: { capcity: 100 } },
      /retryBudget.capcity: is not a known field; did you mean capacity\?/,
    ],
    [
      { retryBudget: { retryCost: 1.5 } },
      /retryBudget.retryCost: expected an integer, received 1.5$/,
    ],
    [{ retryBudget: { capacity: 0 } }, /retryBudget.capacity: must be at least 1$/],
    [
      { retryBudget: { timeoutCost: 'high' } },
      /retryBudget.timeoutCost: expected a number, received string$/,
    ],
    [
      { retryBudget: true },
      /retryBudget: expected false or an object of capacity, retryCost and timeoutCost$/,
    ],
  ])('refuses %o with a clear AgentChatError', (options, message) => {
    const make = () =>
      new Client({ apiKey: API_KEY, baseUrl: mock.baseUrl, ...(options as object) });
    expect(make).toThrow(AgentChatError);
    expect(make).toThrow(message);
  });

  it('answers an unknown key with AuthenticationError', async () => {
    await expect(
      client({ apiKey: 'sk_wrong_0000000' }).projects.get('proj_1'),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('calls an apiKey function before each attempt', async () => {
    const keys = ['sk_expired_000000', API_KEY];
    const apiKey = vi.fn(async () => keys.shift() as string);
    mock.enqueue({ kind: 'status', status: 503, headers: { 'retry-after': '0' } });
    await client({ apiKey }).projects.create({ name: 'P', agentId: 'a' });
    expect(apiKey).toHaveBeenCalledTimes(2);
    expect(mock.requestLog().map((r) => r.headers.authorization)).toEqual([
      'Bearer sk_expired_000000',
      `Bearer ${API_KEY}`,
    ]);
  });

  it('sends nothing when the apiKey function throws or returns nothing', async () => {
    const failing = client({
      apiKey: () => {
        throw new Error('token service down');
      },
    });
    const error = await failing.projects.get('p').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentChatError);
    expect((error as Error).cause).toMatchObject({ message: 'token service down' });
    await expect(client({ apiKey: async () => '' }).projects.get('p')).rejects.toThrow(
      /non-empty string/,
    );
    expect(mock.requestLog()).toHaveLength(0);
  });

  it.each([
    ['a number', async () => 42 as unknown as string, 'returned number'],
    ['a key with a trailing space', async () => 'sk_live_1 ', 'whitespace at its start or end'],
    ['a key holding a BEL', async () => 'sk_\u0007live', 'character 4 is U+0007'],
    ['a key holding U+0100', async () => 'sk_live_\u0100', 'character 9 is U+0100'],
  ])(
    'blames the apiKey function for %s, saying what is wrong without quoting it',
    async (_name, apiKey, problem) => {
      const error = await client({ apiKey })
        .projects.get('p')
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(AgentChatError);
      expect((error as Error).message).toMatch(/^The apiKey function returned /);
      expect((error as Error).message).toContain(problem);
      expect((error as Error).message).not.toContain('sk_');
      expect(mock.requestLog()).toHaveLength(0);
    },
  );

  it('bounds an apiKey function that never answers by the attempt timeout, and retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const answers = [new Promise<string>(() => {}), Promise.resolve(API_KEY)];
      const apiKey = vi.fn(() => answers.shift() as Promise<string>);
      const call = client({ apiKey, timeout: 1000 }).projects.get('proj_missing');
      const outcome = call.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(1000 + retryDefaults.initialDelayMs);
      // The second attempt got the key and reached the service, which knows no such project.
      expect(await outcome).toBeInstanceOf(NotFoundError);
      expect(apiKey).toHaveBeenCalledTimes(2);
      expect(mock.requestLog().map((r) => r.headers.authorization)).toEqual([`Bearer ${API_KEY}`]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a call at once on abort while the apiKey function has not answered', async () => {
    const controller = new AbortController();
    const call = client({ apiKey: () => new Promise<string>(() => {}) }).projects.get('p', {
      signal: controller.signal,
    });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    expect(mock.requestLog()).toHaveLength(0);
  });

  it('looks up globalThis.fetch at each request', async () => {
    const agentchat = client();
    const spy = vi.fn(globalThis.fetch);
    vi.stubGlobal('fetch', spy);
    await agentchat.projects.create({ name: 'P', agentId: 'a' });
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('sends through a custom fetch', async () => {
    const custom = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
      globalThis.fetch(input, init),
    );
    await client({ fetch: custom }).projects.create({ name: 'P', agentId: 'a' });
    expect(custom).toHaveBeenCalledTimes(1);
    expect(mock.requestLog()).toHaveLength(1);
  });
});

describe('a misspelt option name', () => {
  /** Every name the client's options take. */
  const names = Object.keys(clientOptionsSchema.shape);

  /** The small slips of `name`: a letter dropped, doubled or swapped with the next, the case changed. */
  function slipsOf(name: string): string[] {
    const slips = new Set<string>();
    for (let i = 0; i < name.length; i++) {
      slips.add(name.slice(0, i) + name.slice(i + 1));
      slips.add(name.slice(0, i + 1) + name.slice(i));
      if (i + 1 < name.length)
        slips.add(name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2));
    }
    slips.add(name.toLowerCase());
    slips.add(name.toUpperCase());
    slips.add((name[0] ?? '').toUpperCase() + name.slice(1));
    // A slip that spells a name itself (case aside) is no misspelling.
    const taken = new Set(names.map((known) => known.toLowerCase()));
    return [...slips].filter((slip) => slip !== name && !taken.has(slip));
  }

  it('suggests the name it is a slip of, for every option and every small slip', () => {
    expect(names.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    let checked = 0;
    for (const name of names) {
      for (const slip of slipsOf(name)) {
        checked++;
        let message = '';
        try {
          new Client({ apiKey: API_KEY, baseUrl: mock.baseUrl, [slip]: undefined });
        } catch (error) {
          message = (error as Error).message;
        }
        if (!message.includes(`${slip}: is not a known field; did you mean ${name}?`)) {
          wrong.push(`${slip} (for ${name}): ${message || 'accepted'}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(400);
  });
});

describe('the resolved settings', () => {
  it('reads back baseUrl, maxRetries and timeout, defaults included', () => {
    const plain = client();
    expect([plain.baseUrl, plain.maxRetries, plain.timeout]).toEqual([mock.baseUrl, 2, 60_000]);
    const tuned = client({ baseUrl: `${mock.baseUrl}/`, maxRetries: 5, timeout: 1_000 });
    expect([tuned.baseUrl, tuned.maxRetries, tuned.timeout]).toEqual([mock.baseUrl, 5, 1_000]);
  });

  it('refuses a baseUrl ending in /v1, which would send every call to /v1/v1/', () => {
    expect(() => client({ baseUrl: `${mock.baseUrl}/v1` })).toThrow(
      `drop the trailing /v1 (use "${mock.baseUrl}")`,
    );
    // A path that merely contains v1 is someone's real root.
    expect(client({ baseUrl: 'https://host/v1beta/api' }).baseUrl).toBe('https://host/v1beta/api');
  });

  it('suggests the option meant for a misspelt one on a call, and sends nothing', async () => {
    const error = await client()
      .projects.get('proj_1', { timout: 5 } as never)
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'Invalid projects.get options: timout: is not a known field; did you mean timeout? Nothing was sent.',
    );
    expect(mock.requestLog()).toEqual([]);
  });
});

describe('withOptions', () => {
  it('derives a client with some options replaced and the rest kept', async () => {
    const base = client({ maxRetries: 4, headers: { 'x-team': 'support' } });
    const derived = base.withOptions({ timeout: 5_000 });
    expect([derived.baseUrl, derived.maxRetries, derived.timeout]).toEqual([
      mock.baseUrl,
      4,
      5_000,
    ]);
    expect([base.maxRetries, base.timeout]).toEqual([4, 60_000]);
    await derived.projects.create({ name: 'P', agentId: 'a' });
    expect(mock.requestLog()[0]?.headers).toMatchObject({
      'x-team': 'support',
      authorization: `Bearer ${API_KEY}`,
    });
  });

  it('keeps the key and base URL the first client read from the environment', async () => {
    vi.stubEnv('AGENTCHAT_API_KEY', API_KEY);
    vi.stubEnv('AGENTCHAT_BASE_URL', mock.baseUrl);
    const base = new Client();
    vi.stubEnv('AGENTCHAT_API_KEY', 'sk_other_0000000');
    vi.stubEnv('AGENTCHAT_BASE_URL', 'https://elsewhere.test/api');
    const derived = base.withOptions({ maxRetries: 0 });
    expect(derived.baseUrl).toBe(mock.baseUrl);
    await derived.projects.create({ name: 'P', agentId: 'a' });
    expect(mock.requestLog()[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('shares nothing either client or the caller can change', async () => {
    const headers: Record<string, string> = { 'x-team': 'support' };
    const middleware: Middleware[] = [];
    const base = client({ headers, middleware });
    const derived = base.withOptions({ headers: { 'x-team': 'sales' } });
    headers['x-team'] = 'changed';
    const seen: string[] = [];
    middleware.push(async (request, next) => {
      seen.push('late');
      return next(request);
    });
    await base.projects.create({ name: 'P', agentId: 'a' });
    await derived.projects.create({ name: 'P', agentId: 'a' });
    expect(mock.requestLog().map((request) => request.headers['x-team'])).toEqual([
      'support',
      'sales',
    ]);
    expect(seen).toEqual([]);
  });

  it('checks the replaced options like the constructor does', () => {
    expect(() => client().withOptions({ timeout: -1 })).toThrow(/timeout/);
    expect(() => client().withOptions({ retries: 1 } as never)).toThrow(
      /retries: is not a known field; did you mean maxRetries\?/,
    );
  });
});

describe('secrets', () => {
  it('never shows the key in util.inspect or JSON of the client', () => {
    const agentchat = client();
    expect(inspect(agentchat, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(agentchat)).not.toContain(API_KEY);
    expect(inspect(agentchat.projects, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  });

  it('shows the client in util.inspect by its name and public settings, quoted as Node quotes them', () => {
    const agentchat = client({ baseUrl: "https://host/it's/api" });
    expect(inspect(agentchat)).toBe(
      `Client { baseUrl: "https://host/it's/api", maxRetries: 2, timeout: 60000 }`,
    );
    expect(inspect({ agentchat }, { colors: true })).toContain('\u001b[33m60000\u001b[39m');
  });

  it('never shows the key in an error, even when the server echoes it', async () => {
    mock.enqueue({
      kind: 'status',
      status: 400,
      body: { error: { type: 'x', message: `bad key ${API_KEY}` } },
    });
    const error = await client()
      .projects.get('p')
      .catch((e: unknown) => e);
    for (const text of [
      String(error),
      (error as Error).stack,
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
    ]) {
      expect(text).not.toContain(API_KEY);
    }
  });
});

describe('browsers', () => {
  it('refuses to construct in a browser without dangerouslyAllowBrowser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => client()).toThrow(AgentChatError);
    expect(() => client()).toThrow(/dangerouslyAllowBrowser/);
    expect(() => client({ dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('sends no User-Agent from a browser', async () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    await client({ dangerouslyAllowBrowser: true }).projects.create({ name: 'P', agentId: 'a' });
    expect(mock.requestLog()[0]?.headers['user-agent']).not.toMatch(/agentchat-js/);
  });
});
