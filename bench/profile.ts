/**
 * Runs one contender alone, sequentially, against the mock server in its own process, and prints
 * the client's own CPU time per request: the figure to watch when changing the SDK's request path.
 * Run it under the profiler to see where that time goes:
 *
 *   npm run build
 *   node --cpu-prof --cpu-prof-dir=.profiles --import tsx bench/profile.ts agentchat projects.get 20000
 *
 * Then open the .cpuprofile in Chrome DevTools (Performance panel) or VS Code.
 */
import { CONTENDER_NAMES, type ContenderName, createContender } from './contenders.js';
import { BENCH_API_KEY, startMockProcess } from './mock-process.js';
import { callOf, OPERATIONS, type Operation } from './operations.js';

const [name = 'agentchat', operation = 'projects.get', countArg = '10000'] = process.argv.slice(2);
if (!CONTENDER_NAMES.includes(name as ContenderName)) throw new Error(`unknown client ${name}`);
if (!OPERATIONS.includes(operation as Operation)) throw new Error(`unknown operation ${operation}`);
const count = Number(countArg);

const server = await startMockProcess();
try {
  const projectId = await server.reset();
  const contender = createContender(name as ContenderName, {
    baseUrl: server.baseUrl,
    apiKey: BENCH_API_KEY,
  });
  const call = callOf(contender, operation as Operation, projectId);
  for (let i = 0; i < Math.min(1000, count); i++) await call(); // warm-up: JIT, connection pool
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let i = 0; i < count; i++) await call();
  const wall = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const perRequest = (micros: number) => `${(micros / count).toFixed(1)} µs`;
  console.log(
    `${name} ${operation} × ${count}: client CPU ${perRequest(cpu.user + cpu.system)} per request ` +
      `(user ${perRequest(cpu.user)}, system ${perRequest(cpu.system)}); ` +
      `wall ${perRequest(wall * 1000)} per request`,
  );
} finally {
  await server.stop();
}
