/**
 * Runs one contender alone, sequentially, and prints the client's own CPU time per request: the
 * figure to watch when changing the SDK's request path. By default it calls the mock server in its
 * own process; with --stub, the global `fetch` answers at once (see stub-fetch.ts), so that only
 * the client's own work is left and a profile is not dominated by the HTTP stack and the socket.
 * Run it under the profiler to see where that time goes:
 *
 *   npm run build
 *   node --cpu-prof --cpu-prof-dir=.tmp/profiles --import tsx bench/profile.ts agentchat projects.get 20000
 *   node --cpu-prof --cpu-prof-dir=.tmp/profiles --import tsx bench/profile.ts --stub ky+policy chat.send 50000
 *   npx tsx bench/profile-summary.ts .tmp/profiles/<file>.cpuprofile
 *
 * (.tmp/ is ignored by git.) Then read the summary, or open the .cpuprofile in Chrome DevTools
 * (Performance panel) or VS Code.
 */
import { parseArgs } from 'node:util';
import { CONTENDER_NAMES, type ContenderName, createContender } from './contenders.js';
import { BENCH_API_KEY, startMockProcess } from './mock-process.js';
import { callOf, OPERATIONS, type Operation } from './operations.js';
import { installStubFetch, STUB_PROJECT_ID } from './stub-fetch.js';

const { values, positionals } = parseArgs({
  options: { stub: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const [name = 'agentchat', operation = 'projects.get', countArg = '10000'] = positionals;
if (!CONTENDER_NAMES.includes(name as ContenderName)) throw new Error(`unknown client ${name}`);
if (!OPERATIONS.includes(operation as Operation)) throw new Error(`unknown operation ${operation}`);
const count = Number(countArg);
if (!Number.isInteger(count) || count <= 0) throw new Error(`count must be a positive integer`);

if (values.stub) {
  const restoreFetch = installStubFetch();
  try {
    await run('http://stub.test/api', STUB_PROJECT_ID);
  } finally {
    restoreFetch();
  }
} else {
  const server = await startMockProcess();
  try {
    await run(server.baseUrl, await server.reset());
  } finally {
    await server.stop();
  }
}

async function run(baseUrl: string, projectId: string): Promise<void> {
  const contender = createContender(name as ContenderName, { baseUrl, apiKey: BENCH_API_KEY });
  const call = callOf(contender, operation as Operation, projectId);
  for (let i = 0; i < Math.min(1000, count); i++) await call(); // warm-up: JIT, connection pool
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let i = 0; i < count; i++) await call();
  const wall = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const perRequest = (micros: number) => `${(micros / count).toFixed(1)} µs`;
  console.log(
    `${name} ${operation} × ${count}${values.stub ? ' (stub fetch)' : ''}: client CPU ` +
      `${perRequest(cpu.user + cpu.system)} per request (user ${perRequest(cpu.user)}, system ` +
      `${perRequest(cpu.system)}); wall ${perRequest(wall * 1000)} per request`,
  );
}
