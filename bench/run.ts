/**
 * Measures what the SDK costs over raw fetch, side by side with ky alone and openai-node, and
 * prints Markdown for docs/performance.md. Needs the build: `npm run bench` (full, a few minutes)
 * or `npm run bench:smoke` (short, for CI: prints figures, judges nothing).
 *
 * Options: --smoke for the short run; --only=bundle,import,overhead,sequential,burst,heap for some
 * sections.
 */
import { parseArgs } from 'node:util';
import { measureBundleSizes } from './bundle-size.js';
import { measureColdImports } from './cold-import.js';
import { FULL, SMOKE } from './config.js';
import {
  CONTENDER_NAMES,
  type ContenderName,
  createContender,
  verifyContender,
} from './contenders.js';
import { type HeapResult, measureRetainedHeap } from './heap.js';
import { measureBurst, measureSequential, type Timings } from './latency.js';
import { describeMachine } from './machine.js';
import { BENCH_API_KEY, startMockProcess } from './mock-process.js';
import { OPERATIONS } from './operations.js';
import { measureOverhead } from './overhead.js';
import {
  bundleTable,
  burstTable,
  coldImportTable,
  heapTable,
  latencyTable,
  overheadTable,
  targetTable,
  type Verdict,
} from './report.js';

const SECTIONS = ['bundle', 'import', 'overhead', 'sequential', 'burst', 'heap'] as const;
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
const x = (value: number) => `${value.toFixed(2)}x`;

out(`## ${args.smoke ? 'Smoke run (too few samples to judge by)' : 'Results'}`);
out();
for (const fact of describeMachine()) out(`- ${fact}`);
out();

if (wants('bundle')) {
  progress('bundling');
  const sizes = await measureBundleSizes();
  out('### Browser bundle (esbuild, min + gzip)\n');
  out(bundleTable(sizes));
  out();
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
  out(overheadTable(await measureOverhead(config.overhead)));
  out();
}

if (wants('sequential') || wants('burst') || wants('heap')) {
  const server = await startMockProcess();
  try {
    const target = { baseUrl: server.baseUrl, apiKey: BENCH_API_KEY };
    const contenders = CONTENDER_NAMES.map((name) => createContender(name, target));
    const projectId = await server.reset();
    for (const contender of contenders) await verifyContender(contender, projectId);
    const latency: Array<[string, Timings]> = [];
    let burstReport: string[] = [];

    if (wants('sequential')) {
      for (const operation of OPERATIONS) {
        progress(`sequential ${operation}, ${config.sequential.samples} samples per client`);
        const timings = await measureSequential(
          contenders,
          operation,
          await server.reset(),
          config.sequential,
        );
        latency.push([operation, timings]);
        judgeSequential(operation, timings);
      }
    }
    if (wants('burst')) {
      const { requests, concurrency, rounds } = config.burst;
      progress(`bursts of ${requests}, ${concurrency} at a time, ${rounds} per client`);
      const bursts = await measureBurst(contenders, {
        ...config.burst,
        beforeRound: () => server.reset(),
      });
      burstReport = [
        `### Bursts: ${requests} × projects.get, ${concurrency} in flight, time per request\n`,
        burstTable(bursts),
        '',
      ];
      const burstRatio = bursts.ratios.get('agentchat')?.median ?? Number.NaN;
      judge('burst ≤ 1.10x raw fetch', x(burstRatio), burstRatio <= 1.1);
    }
    if (latency.length > 0) {
      out('### Sequential calls, time per request\n');
      out(latencyTable(latency));
      out();
    }
    for (const line of burstReport) out(line);

    if (wants('heap')) {
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
    }
  } finally {
    await server.stop();
  }
}

if (verdicts.length > 0) {
  out('### Verdicts\n');
  out(targetTable(verdicts));
  if (args.smoke) out('\nA smoke run has too few samples to judge by; run `npm run bench`.');
}

function ratioToFetch(timings: Timings, name: ContenderName): number {
  return (timings.get(name)?.median ?? Number.NaN) / (timings.get('fetch')?.median ?? Number.NaN);
}

function judgeSequential(operation: string, timings: Timings): void {
  const ours = ratioToFetch(timings, 'agentchat');
  judge(`sequential ${operation} ≤ 1.20x raw fetch`, x(ours), ours <= 1.2);
  const peer = ratioToFetch(timings, 'openai');
  judge(`sequential ${operation} below openai`, `${x(ours)} vs ${x(peer)}`, ours < peer);
}
