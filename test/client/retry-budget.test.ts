/**
 * The retry budget, proved where it matters: the number of requests a real HTTP server on
 * 127.0.0.1 receives. The backoff between attempts runs on a fake clock, moved only when every
 * running call waits on a timer (test/helpers/fake-clock.ts), so hundreds of calls take the time
 * their requests take, however busy the machine.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  AgentChatError,
  APIConnectionError,
  Client,
  type ClientOptions,
  InternalServerError,
  type Middleware,
  type RetryBudgetState,
  retryDefaults,
} from '../../src/index.js';
import {
  type CallWatch,
  settleOnFakeClock,
  useFakeClock,
  watchCalls,
} from '../helpers/fake-clock.js';
import { json, project, startHostileServer } from '../helpers/hostile-server.js';
import { recordingLogger } from '../helpers/reliability.js';

const apiKey = 'sk_live_budget_7c1d9e2f4a';
const server = await startHostileServer();
afterAll(() => server.close());

/** For the tests of hundreds of calls over real sockets: seconds on a machine busy with other work. */
const HEAVY = 60_000;

useFakeClock();

let watch: CallWatch;
/** A client whose calls `run` can drive on the fake clock. */
function newClient(options: ClientOptions = {}): Client {
  watch = watchCalls();
  return new Client({
    apiKey,
    baseUrl: server.baseUrl,
    middleware: [watch.middleware],
    logger: watch.logger,
    logLevel: 'debug',
    ...options,
  });
}

/** What `count` concurrent `projects.get` calls on `client` ended with: a value or an error. */
async function run(client: Pick<Client, 'projects'>, count = 1): Promise<unknown[]> {
  const outcomes = await settleOnFakeClock(watch, () =>
    Array.from({ length: count }, () => get(client)),
  );
  return outcomes.map((outcome) => (outcome.ok ? outcome.value : outcome.error));
}

/** A service that is down: 503 to everything, no Retry-After. */
const down = () => server.answer((_req, res) => json(res, 503, { error: { message: 'down' } }));
/** A service that is up. */
const up = () => server.answer((_req, res) => json(res, 200, project));
/** A service that fails the next request only. */
const failsOnce = () =>
  server.answer((_req, res, index) => (index === 0 ? json(res, 503, {}) : json(res, 200, project)));

const get = (client: Pick<Client, 'projects'>) => client.projects.get('proj_1');
const flagged = (error: unknown) => error instanceof AgentChatError && error.retryBudgetExhausted;

/** The one outcome of a single call. */
const once = async (client: Pick<Client, 'projects'>) => (await run(client))[0];

describe('a full outage', () => {
  it(
    'costs at most 1.5 attempts a call, the calls the budget cannot pay for failing at once, flagged',
    async () => {
      down();
      const client = newClient();

      const results = await run(client, 300);

      // 300 first attempts and the 100 retries 500 tokens pay for, at 5 each; 900 without a budget.
      expect(server.requests).toBe(300 + retryDefaults.retryBudget.capacity / 5);
      expect(server.requests / 300).toBeLessThanOrEqual(1.5);
      for (const error of results) {
        // The last attempt's own error, its class kept.
        expect(error).toBeInstanceOf(InternalServerError);
        expect(error).toMatchObject({ status: 503 });
      }
      // A call ends unflagged only when the bucket paid for both its retries: 50 calls at most.
      expect(results.filter(flagged).length).toBeGreaterThanOrEqual(300 - 50);
      expect((results.find(flagged) as Error).message).toBe(
        'GET /v1/projects/proj_1 failed with status 503: down; not retried: ' +
          "the client's retry budget is spent (many calls failed lately); " +
          'try again later, or tune the retryBudget option',
      );
      expect(JSON.parse(JSON.stringify(results.find(flagged)))).toMatchObject({
        retryBudgetExhausted: true,
      });
    },
    HEAVY,
  );

  it('stops one call at a time once the bucket is dry, each failing on its first attempt', async () => {
    down();
    const client = newClient({ retryBudget: { capacity: 10 } });

    const first = await once(client);
    // Two retries at 5 each: the bucket could pay for the whole ladder.
    expect(server.requests).toBe(3);
    expect(flagged(first)).toBe(false);
    expect((first as Error).message).not.toContain('retry budget');

    const later = await run(client, 3);
    expect(server.requests).toBe(3 + 3);
    expect(later.every(flagged)).toBe(true);
  });

  it('charges 10 for a retry after a connection failure', async () => {
    // Each request's socket is destroyed before any answer.
    server.answer((req) => req.socket.destroy());
    const client = newClient({ retryBudget: { capacity: 25 } });

    const first = await once(client);
    expect(first).toBeInstanceOf(APIConnectionError);
    expect(server.requests).toBe(3); // 25 pays for two retries at 10
    const second = await once(client);
    expect(server.requests).toBe(4); // 5 left: not enough for one more
    expect(second).toBeInstanceOf(APIConnectionError);
    expect(flagged(second)).toBe(true);
  });

  it(
    'makes every request the retry ladders allow with retryBudget: false',
    async () => {
      down();
      const client = newClient({ retryBudget: false });

      const results = await run(client, 300);

      expect(server.requests).toBe(900);
      expect(results.some(flagged)).toBe(false);
    },
    HEAVY,
  );
});

describe('rare failures', () => {
  /** 1 request in 100 fails. */
  const rarelyFailing = () =>
    server.answer((_req, res, index) =>
      index % 100 === 99 ? json(res, 503, {}) : json(res, 200, project),
    );
  const succeeded = (result: unknown) => (result as { id?: string }).id === 'proj_1';

  it(
    'leave every call succeeding: 1 request in 100 fails and each is retried',
    async () => {
      rarelyFailing();
      const client = newClient();

      const results = await run(client, 300);

      expect(results.every(succeeded)).toBe(true);
      expect(server.requests).toBe(303);
    },
    HEAVY,
  );

  it(
    'are paid for by the successes between them, even from a bucket with room for two retries',
    async () => {
      rarelyFailing();
      // Without the refunds, the third of the ten failures in 1,000 calls would find the bucket dry.
      const client = newClient({ retryBudget: { capacity: 10 } });

      const results: unknown[] = [];
      for (let batch = 0; batch < 40; batch++) results.push(...(await run(client, 25)));

      expect(results.filter(flagged)).toEqual([]);
      expect(results.every(succeeded)).toBe(true);
      expect(server.requests).toBe(1010);
    },
    HEAVY,
  );
});

describe('recovery', () => {
  it('refills the bucket by one per call that succeeds at once, and by what a retried call took', async () => {
    const client = newClient({ retryBudget: { capacity: 10 } });
    let budget: RetryBudgetState | undefined;
    const readBudget: Middleware = (request, next, { retryBudget }) => {
      budget = retryBudget;
      return next(request);
    };
    const watched = client.withOptions({ middleware: [watch.middleware, readBudget] });

    down();
    await once(watched); // two retries: 10 taken, none left
    expect(budget).toMatchObject({ available: 0, capacity: 10 });
    expect(flagged(await once(watched))).toBe(true);

    up();
    await run(watched, 4);
    expect(budget?.available).toBe(4);

    // One token short of a retry.
    failsOnce();
    expect(flagged(await once(watched))).toBe(true);
    expect(server.requests).toBe(1);

    up();
    await once(watched); // the fifth token
    failsOnce();
    await expect(once(watched)).resolves.toMatchObject({ id: 'proj_1' });
    expect(server.requests).toBe(2);
    // The retry took 5 and its success gave the 5 back.
    expect(budget?.available).toBe(5);
  });
});

describe('one bucket per client family', () => {
  it('is shared by the clients withOptions makes', async () => {
    down();
    const parent = newClient({ retryBudget: { capacity: 10 } });
    const child = parent.withOptions({ timeout: 5_000, headers: { 'x-tenant': 'acme' } });
    const grandchild = child.withOptions({ maxRetries: 4 });

    await once(parent); // drains the bucket
    expect(server.requests).toBe(3);
    expect(flagged(await once(child))).toBe(true);
    expect(flagged(await once(grandchild))).toBe(true);
    expect(server.requests).toBe(3 + 2);
  });

  it('is shared by the operations the MCP server makes per request with its caller’s key', async () => {
    down();
    const client = newClient({ retryBudget: { capacity: 10 } });
    const withApiKey = Symbol.for('agentchat.forRequest');
    const perRequest = (
      client as unknown as Record<symbol, (key: string) => Pick<Client, 'projects'>>
    )[withApiKey]?.('sk_caller_1b2c3d4e5f') as Pick<Client, 'projects'>;

    await once(perRequest);
    expect(server.requests).toBe(3);
    expect(flagged(await once(client))).toBe(true);
    expect(server.requests).toBe(4);
  });

  it('is a client’s own when withOptions sets retryBudget, or another baseUrl', async () => {
    down();
    const parent = newClient({ retryBudget: { capacity: 10 } });
    await once(parent);
    expect(server.requests).toBe(3);

    await once(parent.withOptions({ retryBudget: { capacity: 5 } }));
    expect(server.requests).toBe(3 + 2);
    await once(parent.withOptions({ retryBudget: false }));
    expect(server.requests).toBe(3 + 2 + 3);
    // A trailing slash names the same service: the same family, the bucket still dry.
    await once(parent.withOptions({ baseUrl: `${server.baseUrl}/` }));
    expect(server.requests).toBe(3 + 2 + 3 + 1);
    // Another address is another service, with a budget of its own.
    await once(parent.withOptions({ baseUrl: server.baseUrl.replace('127.0.0.1', 'localhost') }));
    expect(server.requests).toBe(3 + 2 + 3 + 1 + 3);
  });
});

describe('the log', () => {
  it('says at info, in the one line a failed call writes, that the budget refused its retry', async () => {
    down();
    const logger = recordingLogger();
    // No retry is paid for, so no backoff: the call runs on the real event loop alone.
    const client = new Client({
      apiKey,
      baseUrl: server.baseUrl,
      retryBudget: { capacity: 4 },
      logger,
      logLevel: 'info',
    });

    await get(client).catch(() => undefined);

    expect(logger.lines).toHaveLength(1);
    const [line] = logger.lines;
    expect(line?.level).toBe('info');
    expect(line?.text).toMatch(
      /^agentchat: GET \/v1\/projects\/proj_1 → 503 \(attempt 1\/3, \d+ ms\); not retried: the retry budget is spent /,
    );
    expect(line?.text).not.toContain(apiKey);
  });
});
