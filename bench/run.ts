/**
 * Measures what the SDK costs over raw fetch, side by side with ky alone, ky + the SDK's policy
 * (the floor for an SDK built on ky) and openai-node, and prints Markdown for
 * docs/maintainers/performance.md, ending with a verdict per target. Needs the build:
 * `npm run bench` (full, about ten minutes) or `npm run bench:smoke` (short, for CI: prints every
 * figure and verdict, and exits 0 whatever the verdicts: it has too few samples to judge by).
 *
 * Options: --smoke for the short run; --only=<sections> for some of them, comma-separated, from
 * bundle, import, overhead, tracing, allocation, sequential, burst, realistic, heap, mcp-auth.
 */
import { parseArgs } from 'node:util';
import { measureAllocation } from './allocation.js';
import { measureBundleSizes } from './bundle-size.js';
import { measureColdImports } from './cold-import.js';
import { FULL, SMOKE } from './config.js';
import {
  CONTENDER_NAMES,
  type Contender,
  type ContenderName,
  createContender,
  verifyContender,
} from './contenders.js';
import { type HeapResult, measureRetainedHeap } from './heap.js';
import { measureBurst, measureSequential, pairedRatio, type Timings } from './latency.js';
import { describeMachine } from './machine.js';
import { measureMcpAuth } from './mcp-auth.js';
import { BENCH_API_KEY, type MockProcess, startMockProcess } from './mock-process.js';
import { OPERATIONS } from './operations.js';
import { measureTracingOverhead } from './otel.js';
import { measureOverhead } from './overhead.js';
import {
  allocationTable,
  bundleTable,
  burstTable,
  coldImportTable,
  heapTable,
  latencyTable,
  mcpAuthTable,
  overheadTable,
  targetTable,
  throughputTable,
  tracingTable,
  type Verdict,
} from './report.js';

const SECTIONS = [
  'bundle',
  'import',
  'overhead',
  'tracing',
  'allocation',
  'sequential',
  'burst',
  'realistic',
  'heap',
  'mcp-auth',
] as const;
type Section = (typeof SECTIONS)[number];

const { values: args } = parseArgs({
  options: { smoke: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const config = args.smoke ? SMOKE : FULL;
const sections = new Set<string>(args.only ? args.only.split(',') : SECTIONS);
for (const section of sections) {
  if (!SECTIONS.includes(section as Section)) throw new Error(`unknown section ${section}`);
}
const wants = (section: Section) => sections.has(section);

const out = (text = '') => process.stdout.write(`${text}\n`);
const progress = (text: string) => process.stderr.write(`… ${text}\n`);
const verdicts: Verdict[] = [];
const judge = (target: string, measured: string, met: boolean) =>
  verdicts.push({ target, measured, met });
const x = (value: number) => `${value.toFixed(3)}x`;

out(`## ${args.smoke ? 'Smoke run (too few samples to judge by)' : 'Results'}`);
out();
for (const fact of describeMachine()) out(`- ${fact}`);
out();

/**
 * The browser bundle of a page making the three calls, min + gzip: the size test's budget
 * (`sizeBudget` in test/helpers/package-consumer.ts, whose account says why it is what it is).
 */
const BUNDLE_BUDGET = 26 * 1024;

if (wants('bundle')) {
  progress('bundling');
  const sizes = await measureBundleSizes();
  out('### Browser bundle (esbuild, min + gzip)\n');
  out(bundleTable(sizes));
  out();
  const ours = sizes.find((size) => size.name === 'agentchat')?.gzipped ?? Number.NaN;
  const peer = sizes.find((size) => size.name === 'openai')?.gzipped ?? Number.NaN;
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  judge(`browser bundle ≤ ${kib(BUNDLE_BUDGET)} min + gzip`, kib(ours), ours <= BUNDLE_BUDGET);
  judge(
    'browser bundle under a third of openai',
    `${kib(ours)} vs ${kib(peer)} (${((100 * ours) / peer).toFixed(0)} %)`,
    ours < peer / 3,
  );
}

if (wants('import')) {
  progress(`cold imports, ${config.coldImport.runs} runs each`);
  const imports = measureColdImports(config.coldImport.runs);
  out(`### Cold import (median of ${config.coldImport.runs} fresh processes)\n`);
  out(coldImportTable(imports));
  out();
  const ours = imports.get('agentchat ESM')?.wall.median ?? Number.NaN;
  const peer = imports.get('openai ESM')?.wall.median ?? Number.NaN;
  judge(
    'cold ESM import below openai ESM',
    `${ours.toFixed(1)} ms vs ${peer.toFixed(1)} ms`,
    ours < peer,
  );
}

if (wants('overhead')) {
  const { samples, batch } = config.overhead;
  progress(`client CPU with a stub fetch, ${samples} batches of ${batch} per client`);
  out('### Client CPU per call, network stubbed out\n');
  const overheads = await measureOverhead(config.overhead);
  out(overheadTable(overheads));
  out();
  for (const [operation, timings] of overheads) {
    const toKy = ratioOf(timings, 'agentchat', 'ky+policy');
    judge(`client CPU, ${operation}, stubbed ≤ 1.15x ky+policy`, x(toKy), toKy <= 1.15);
  }
}

if (wants('tracing')) {
  const { samples, batch } = config.overhead;
  progress(`tracing's CPU with a stub fetch, ${samples} batches of ${batch} per state`);
  out('### Tracing: client CPU per call, network stubbed out\n');
  out(tracingTable(await measureTracingOverhead(config.overhead)));
  out();
}

if (wants('allocation')) {
  const { calls } = config.allocation;
  progress(`heap allocated per call with a stub fetch, ${calls} calls per client`);
  out('### Heap allocated per call, network stubbed out\n');
  const allocations = await measureAllocation(config.allocation);
  out(allocationTable(allocations));
  out();
  for (const [operation, perContender] of allocations) {
    const over =
      (perContender.get('agentchat') ?? Number.NaN) - (perContender.get('ky+policy') ?? Number.NaN);
    judge(
      `allocation, ${operation}, ≤ 2 KiB over ky+policy`,
      `${over < 0 ? '−' : '+'}${(Math.abs(over) / 1024).toFixed(1)} KiB`,
      over <= 2048,
    );
  }
}

if (wants('sequential') || wants('burst')) {
  await withServer({ latencyMs: 0 }, async (server, contenders) => {
    const latency: Array<[string, Timings]> = [];
    if (wants('sequential')) {
      for (const operation of OPERATIONS) {
        progress(`sequential ${operation}, ${config.sequential.samples} samples per client`);
        const projectId = await server.reset();
        const timings = await measureSequential(
          contenders,
          operation,
          projectId,
          config.sequential,
        );
        latency.push([operation, timings]);
        judgeSequential(operation, timings);
      }
      out('### Sequential calls, time per request\n');
      out(latencyTable(latency));
      out();
    }
    if (wants('burst')) {
      const { requests, concurrency, rounds } = config.burst;
      progress(`bursts of ${requests}, ${concurrency} at a time, ${rounds} per client`);
      const bursts = await measureBurst(contenders, {
        ...config.burst,
        operation: 'projects.get',
        beforeRound: () => server.reset(),
      });
      out(`### Bursts: ${requests} × projects.get, ${concurrency} in flight, time per request\n`);
      out(burstTable(bursts));
      out();
      const toKy = pairedRatio(bursts, 'agentchat', 'ky+policy')?.median ?? Number.NaN;
      judge(`burst (${concurrency} in flight) ≤ 1.10x ky+policy`, x(toKy), toKy <= 1.1);
    }
  });
}

if (wants('realistic')) {
  const { latencyMs, requests, concurrency, rounds } = config.realistic;
  await withServer({ latencyMs }, async (server, contenders) => {
    progress(
      `bursts of ${requests} at ${latencyMs} ms latency, ${concurrency} at a time, ${rounds} per client`,
    );
    const bursts = await measureBurst(contenders, {
      ...config.realistic,
      operation: 'projects.get',
      beforeRound: () => server.reset(),
    });
    out(
      `### At a realistic latency: ${requests} × projects.get, the server answering after ` +
        `${latencyMs} ms, ${concurrency} in flight\n`,
    );
    out(throughputTable(bursts));
    out();
    const ours = pairedRatio(bursts, 'agentchat', 'fetch', { inverse: true })?.median ?? Number.NaN;
    judge(
      `throughput at ${latencyMs} ms latency, ${concurrency} in flight ≥ 0.95x raw fetch`,
      x(ours),
      ours >= 0.95,
    );
  });
}

if (wants('heap')) {
  await withServer({ latencyMs: 0 }, async (server) => {
    const target = { baseUrl: server.baseUrl, apiKey: BENCH_API_KEY };
    const heap: Array<[ContenderName, HeapResult]> = [];
    for (const name of CONTENDER_NAMES) {
      progress(`heap after ${config.heap.requests} requests: ${name}`);
      const heapTarget = { ...target, projectId: await server.reset() };
      heap.push([name, await measureRetainedHeap(name, heapTarget, config.heap)]);
    }
    out(`### Heap retained after ${config.heap.requests} requests (after full GCs)\n`);
    out(heapTable(heap));
    out();
    const ours = heap.find(([name]) => name === 'agentchat')?.[1];
    if (ours) {
      const retained = ours.after - ours.before;
      judge('heap retained < 1 MiB', `${(retained / 1024).toFixed(1)} KiB`, retained < 2 ** 20);
    }
  });
}

/** The budget for a tool call with a verified JWT over the same call in pass-through. */
const MCP_AUTH_BUDGET_MS = 0.3;

if (wants('mcp-auth')) {
  const { rounds, batch } = config.mcpAuth;
  progress(`MCP tool calls per mode, ${rounds} rounds of ${batch} calls`);
  const result = await measureMcpAuth(config.mcpAuth);
  out(
    `### MCP server CPU per tool call (get_project, mock service in its own process, ` +
      `${rounds} rounds of ${batch} calls)\n`,
  );
  out(mcpAuthTable(result));
  out();
  const signed = (ms: number) => `${ms < 0 ? '−' : '+'}${Math.abs(ms).toFixed(3)} ms`;
  out(
    `Authorization over the own-key handler (the gate alone): ` +
      `${signed(result.authorizationOverOwnKey / 1000)} (median of rounds).\n`,
  );
  const over = (result.overPassThrough.get('authorization') ?? Number.NaN) / 1000;
  judge(
    `MCP tool call with a verified JWT (keys and token cached) ≤ ${MCP_AUTH_BUDGET_MS} ms CPU over pass-through`,
    signed(over),
    over <= MCP_AUTH_BUDGET_MS,
  );
}

if (verdicts.length > 0) {
  out('### Verdicts\n');
  out(targetTable(verdicts));
  // The verdicts are printed, never turned into an exit code: a missed target is a finding to
  // read, and a smoke run on a loaded CI machine has too few samples to judge by.
  if (args.smoke) out('\nA smoke run has too few samples to judge by; run `npm run bench`.');
}

/**
 * Starts the mock server in its own process, makes every contender against it and checks that each
 * answers correctly, runs `body`, and stops the server whatever happens.
 */
async function withServer(
  options: { latencyMs: number },
  body: (server: MockProcess, contenders: Contender[]) => Promise<void>,
): Promise<void> {
  const server = await startMockProcess(options);
  try {
    const target = { baseUrl: server.baseUrl, apiKey: BENCH_API_KEY };
    const contenders = CONTENDER_NAMES.map((name) => createContender(name, target));
    const projectId = await server.reset();
    for (const contender of contenders) await verifyContender(contender, projectId);
    await body(server, contenders);
  } finally {
    await server.stop();
  }
}

function ratioOf(
  timings: ReadonlyMap<ContenderName, { median: number }>,
  name: ContenderName,
  reference: ContenderName,
): number {
  return (timings.get(name)?.median ?? Number.NaN) / (timings.get(reference)?.median ?? Number.NaN);
}

function judgeSequential(operation: string, timings: Timings): void {
  const toKy = ratioOf(timings, 'agentchat', 'ky+policy');
  judge(`sequential ${operation} ≤ 1.05x ky+policy`, x(toKy), toKy <= 1.05);
  const ours = ratioOf(timings, 'agentchat', 'fetch');
  const peer = ratioOf(timings, 'openai', 'fetch');
  judge(
    `sequential ${operation} ÷ fetch ≤ openai's ÷ fetch`,
    `${x(ours)} vs ${x(peer)}`,
    ours <= peer,
  );
}
