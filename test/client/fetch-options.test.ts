/**
 * `fetchOptions` on the client, `withOptions`, a call and `clientCredentials()`: what reaches the
 * init of each fetch, what is refused, and what a custom `fetch` is handed. The real proxies and
 * certificates are in test/network/.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ApiKeyFunction,
  type Client,
  ConfigurationError,
  clientCredentials,
} from '../../src/index.js';
import { API_KEY, useMockService } from '../helpers/use-mock-service.js';

const clientId = 'svc';
const clientSecret = 'svc-secret';
const { mock, client } = useMockService({
  apiKeys: [API_KEY],
  oauthClients: [{ clientId, clientSecret }],
});

/** An init as the SDK hands it to fetch, with the test's own `probe` option among them. */
type ProbedInit = RequestInit & { probe?: unknown };

/** The platform's fetch, watched: the init each call of it got beside the request. */
function watchFetch(): ProbedInit[] {
  const inits: ProbedInit[] = [];
  const platform = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    inits.push(init ?? {});
    return platform(input, init);
  });
  return inits;
}

const marker = (name: string) => ({ name });
const noWait = { kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } } as const;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchOptions', () => {
  it("merges the client's into every attempt's init, the call's over them", async () => {
    const inits = watchFetch();
    const proxy = marker('proxy');
    const agentchat = client({ fetchOptions: { probe: proxy, priority: 'high' } });
    mock.enqueue(noWait);
    await agentchat.projects.create({ name: 'P', agentId: 'a' });
    const direct = marker('direct');
    await agentchat.projects.create(
      { name: 'P', agentId: 'a' },
      { fetchOptions: { probe: direct } },
    );
    expect(inits.map((init) => [init.probe, init.priority])).toEqual([
      [proxy, 'high'],
      [proxy, 'high'],
      [direct, 'high'],
    ]);
  });

  it('passes no init at all to a client without any', async () => {
    const inits = watchFetch();
    await client().projects.create({ name: 'P', agentId: 'a' });
    expect(inits).toEqual([{}]);
  });

  it('keeps them through withOptions unless replaced', async () => {
    const inits = watchFetch();
    const first = marker('first');
    const second = marker('second');
    const parent = client({ fetchOptions: { probe: first } });
    await parent.withOptions({ timeout: 5_000 }).projects.create({ name: 'P', agentId: 'a' });
    await parent
      .withOptions({ fetchOptions: { probe: second } })
      .projects.create({ name: 'P', agentId: 'a' });
    expect(inits.map((init) => init.probe)).toEqual([first, second]);
  });

  it('reads a copy: changing the object afterwards changes nothing', async () => {
    const inits = watchFetch();
    const options: Record<string, unknown> = { probe: marker('kept') };
    const agentchat = client({ fetchOptions: options });
    options.probe = marker('changed');
    await agentchat.projects.create({ name: 'P', agentId: 'a' });
    expect(inits[0]?.probe).toEqual(marker('kept'));
  });

  it.each([
    ['method', /fetchOptions\.method: set by the SDK/],
    ['body', /fetchOptions\.body: set by the SDK \(use extraBody\)/],
    ['headers', /fetchOptions\.headers: use the headers option/],
    ['signal', /fetchOptions\.signal: use a call's signal option/],
    ['redirect', /fetchOptions\.redirect: redirects are never followed/],
  ])('refuses %s, naming the option to use instead', async (key, message) => {
    const fetchOptions = { [key]: 'x' } as never;
    expect(() => client({ fetchOptions })).toThrow(ConfigurationError);
    expect(() => client({ fetchOptions })).toThrow(message);
    expect(() => client().withOptions({ fetchOptions })).toThrow(message);
    expect(() =>
      clientCredentials({ tokenUrl: 'https://a.test/t', clientId, clientSecret, fetchOptions }),
    ).toThrow(message);
    const call = client().projects.get('proj_1', { fetchOptions });
    await expect(call).rejects.toBeInstanceOf(ConfigurationError);
    await expect(call).rejects.toThrow(message);
    expect(mock.requestLog()).toHaveLength(0);
  });

  it.each([[null], ['proxy'], [[1]]])('refuses %j, which is no object of options', (value) => {
    expect(() => client({ fetchOptions: value as never })).toThrow(
      /fetchOptions: expected an object, such as \{ dispatcher \}/,
    );
  });

  it("sends clientCredentials' token requests and discovery with its own", async () => {
    const inits = watchFetch();
    const proxy = marker('proxy');
    const apiKey = clientCredentials({
      tokenUrl: `${mock.baseUrl}/oauth/token`,
      clientId,
      clientSecret,
      fetchOptions: { probe: proxy },
    });
    await client({ apiKey }).projects.create({ name: 'P', agentId: 'a' });
    // The token request carries the provider's; the service's call, the client's (none).
    expect(inits.map((init) => init.probe)).toEqual([proxy, undefined]);
  });
});

describe('a custom fetch', () => {
  it('gets a URL string and an init of plain values it can read, on every attempt', async () => {
    const seen: { url: unknown; init: ProbedInit | undefined }[] = [];
    const custom = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url, init });
      return globalThis.fetch(url, init);
    });
    const probe = marker('proxy');
    mock.enqueue(noWait);
    await client({ fetch: custom, fetchOptions: { probe } }).projects.create(
      { name: 'P', agentId: 'a' },
      { idempotencyKey: 'order-7' },
    );
    expect(seen).toHaveLength(2);
    for (const [attempt, { url, init }] of seen.entries()) {
      expect(url).toBe(`${mock.baseUrl}/v1/projects`);
      expect(init?.method).toBe('POST');
      expect(Object.getPrototypeOf(init?.headers)).toBe(Object.prototype);
      expect(init?.headers).toMatchObject({
        'idempotency-key': 'order-7',
        'x-agentchat-retry-count': String(attempt),
        authorization: `Bearer ${API_KEY}`,
      });
      expect(new TextDecoder().decode(init?.body as ArrayBuffer)).toBe(
        '{"name":"P","agentId":"a"}',
      );
      expect(init?.redirect).toBe('manual');
      expect(init?.signal).toBeInstanceOf(AbortSignal);
      expect(init?.probe).toBe(probe);
    }
  });

  it('gets the same through middleware that replaces the request', async () => {
    const urls: unknown[] = [];
    const agentchat = client({
      fetch: (url, init) => {
        urls.push(url);
        return globalThis.fetch(url, init);
      },
      middleware: [(request, next) => next(new Request(`${request.url}?traced=1`, request))],
    });
    await agentchat.projects.get((await agentchat.projects.create({ name: 'P', agentId: 'a' })).id);
    expect(urls.every((url) => typeof url === 'string' && url.endsWith('?traced=1'))).toBe(true);
  });
});

describe('X-AgentChat-Retry-Count', () => {
  it('counts the attempts of a call from 0, kept in the mock log', async () => {
    mock.enqueue(noWait, noWait);
    await client().projects.create({ name: 'P', agentId: 'a' });
    await client().projects.create({ name: 'Q', agentId: 'a' });
    expect(mock.requestLog().map((entry) => entry.headers['x-agentchat-retry-count'])).toEqual([
      '0',
      '1',
      '2',
      '0',
    ]);
  });

  it('counts the replay after a 401', async () => {
    let calls = 0;
    const apiKey: ApiKeyFunction = () => (calls++ === 0 ? 'sk_revoked' : API_KEY);
    await client({ apiKey }).projects.create({ name: 'P', agentId: 'a' });
    expect(
      mock.requestLog().map((entry) => [entry.status, entry.headers['x-agentchat-retry-count']]),
    ).toEqual([
      [401, '0'],
      [201, '1'],
    ]);
  });
});

describe('appInfo', () => {
  const userAgentOf = async (agentchat: Client) => {
    await agentchat.projects.create({ name: 'P', agentId: 'a' });
    return mock.requestLog().at(-1)?.headers['user-agent'];
  };

  it('names the application after the SDK in the User-Agent', async () => {
    expect(await userAgentOf(client())).toMatch(/^agentchat-js\/\d+\.\d+\.\d+[^ ]*$/);
    expect(
      await userAgentOf(
        client({ appInfo: { name: 'desk', version: '4.1.0', url: 'https://example.com/desk' } }),
      ),
    ).toMatch(/^agentchat-js\/\S+ desk\/4\.1\.0 \(https:\/\/example\.com\/desk\)$/);
    expect(await userAgentOf(client({ appInfo: { name: 'desk' } }))).toMatch(
      /^agentchat-js\/\S+ desk$/,
    );
  });

  const expected = 'expected { name, version?, url? } without spaces, slashes or parentheses';
  it.each([
    [{ name: 'my desk' }, `appInfo.name: ${expected}`],
    [{ name: 'a/b' }, `appInfo.name: ${expected}`],
    [{ version: '1.0' }, `appInfo.name: ${expected}`],
    [{ name: 'desk', version: '1 2' }, `appInfo.version: ${expected}`],
    [{ name: 'desk', url: 'https://x.test/(a)' }, `appInfo.url: ${expected}`],
    ['desk', `appInfo: ${expected}`],
  ])('refuses %j', (appInfo, message) => {
    expect(() => client({ appInfo: appInfo as never })).toThrow(ConfigurationError);
    expect(() => client({ appInfo: appInfo as never })).toThrow(message);
  });
});
