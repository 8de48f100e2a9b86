/**
 * One process of a fleet, for token-cache-fleet.test.ts: clients whose OAuth tokens are shared
 * through Redis by the adapter of examples/redis-token-cache.ts. Each stdin line is a JSON
 * command, answered by one JSON line on stdout: a wave of concurrent calls by the client a setup
 * names (made on first use, so that one process serves every test), or `reset`, which drops every
 * client and its Redis connection. The clients' warnings come out as JSON lines too.
 */
import { createInterface } from 'node:readline';
import { connectTokenCache } from '../../examples/redis-token-cache.js';
import { Client, clientCredentials } from '../../src/index.js';

/** What a client is made from: the test's Redis, mock service and OAuth client. */
export interface FleetSetup {
  redisUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  refreshMarginMs: number;
}

/** A line on stdin. */
export type FleetCommand = { wave: FleetSetup; calls: number } | { reset: true };

const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);
const quiet = () => {};
const clients = new Map<string, Promise<{ client: Client; close: () => Promise<unknown> }>>();

async function connect(setup: FleetSetup) {
  const redis = await connectTokenCache(setup.redisUrl);
  const client = new Client({
    baseUrl: setup.baseUrl,
    logLevel: 'warn',
    logger: { error: quiet, info: quiet, debug: quiet, warn: (message) => say({ warn: message }) },
    apiKey: clientCredentials({
      tokenUrl: `${setup.baseUrl}/oauth/token`,
      clientId: setup.clientId,
      clientSecret: setup.clientSecret,
      refreshMarginMs: setup.refreshMarginMs,
      cache: redis.cache,
    }),
  });
  return { client, close: () => redis.close().catch(() => {}) };
}

say({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as FleetCommand;
  if ('reset' in command) {
    const all = [...clients.values()];
    clients.clear();
    await Promise.all(all.map(async (entry) => (await entry).close()));
    say({ done: true });
    continue;
  }
  const key = JSON.stringify(command.wave);
  const entry = clients.get(key) ?? connect(command.wave);
  clients.set(key, entry);
  const { client } = await entry;
  const results = await Promise.allSettled(
    Array.from({ length: command.calls }, (_, i) =>
      client.projects.create({ name: `Fleet ${process.pid} ${i}`, agentId: 'agent_1' }),
    ),
  );
  const failures = results.flatMap((result) =>
    result.status === 'rejected' ? [String(result.reason)] : [],
  );
  say({ ok: results.length - failures.length, failures });
}
// stdin closed: the test is over (or gone). Open Redis connections would keep the process alive.
process.exit(0);
