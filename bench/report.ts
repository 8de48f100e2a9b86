/** Markdown tables of the measurements, as docs/maintainers/performance.md shows them. */
import type { Allocations } from './allocation.js';
import type { BundleSize } from './bundle-size.js';
import type { ColdImport } from './cold-import.js';
import type { ContenderName } from './contenders.js';
import type { HeapResult } from './heap.js';
import { type BurstTimings, pairedRatio, type Timings } from './latency.js';
import type { McpAuthResult } from './mcp-auth.js';
import type { TracingOverheads } from './otel.js';
import type { Overheads } from './overhead.js';

const us = (value: number) => `${value.toFixed(0)} µs`;
const us1 = (value: number) => `${value.toFixed(1)} µs`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const signedKib = (bytes: number) => `${bytes < 0 ? '−' : '+'}${kib(Math.abs(bytes))}`;
const ratio = (value: number) => `${value.toFixed(2)}x`;

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The floor an SDK built on ky is compared with, beside raw fetch. */
const KY_FLOOR: ContenderName = 'ky+policy';

/**
 * One row per operation and client: median and p90, each as a ratio to raw fetch's, and the
 * median as a ratio to ky + policy's.
 */
export function latencyTable(operations: ReadonlyArray<[string, Timings]>): string {
  const rows: string[][] = [];
  for (const [operation, timings] of operations) {
    const floor = timings.get('fetch');
    const kyFloor = timings.get(KY_FLOOR);
    for (const [name, summary] of timings) {
      rows.push([
        operation,
        name,
        us(summary.median),
        us(summary.p90),
        floor ? ratio(summary.median / floor.median) : '',
        floor ? ratio(summary.p90 / floor.p90) : '',
        kyFloor ? ratio(summary.median / kyFloor.median) : '',
      ]);
    }
  }
  return table(
    [
      'operation',
      'client',
      'median',
      'p90',
      'median ÷ fetch',
      'p90 ÷ fetch',
      `median ÷ ${KY_FLOOR}`,
    ],
    rows,
  );
}

/** Bursts: time per request, and the ratios to raw fetch and to ky + policy, round by round. */
export function burstTable(burst: BurstTimings): string {
  return table(
    [
      'client',
      'median',
      'p90',
      '÷ fetch (median of rounds)',
      '÷ fetch (p90 of rounds)',
      `÷ ${KY_FLOOR} (median of rounds)`,
    ],
    [...burst.timings].map(([name, summary]) => {
      const toFetch = pairedRatio(burst, name, 'fetch');
      const toKy = pairedRatio(burst, name, KY_FLOOR);
      return [
        name,
        us(summary.median),
        us(summary.p90),
        toFetch ? ratio(toFetch.median) : '',
        toFetch ? ratio(toFetch.p90) : '',
        toKy ? ratio(toKy.median) : '',
      ];
    }),
  );
}

/** Bursts against a slow server, read as throughput: requests per second and its ratio to fetch's. */
export function throughputTable(burst: BurstTimings): string {
  return table(
    [
      'client',
      'time per request (median)',
      'requests per second',
      'throughput ÷ fetch (median of rounds)',
      'lowest round',
    ],
    [...burst.timings].map(([name, summary]) => {
      const toFetch = pairedRatio(burst, name, 'fetch', { inverse: true });
      const rounds = burst.rounds.get(name) ?? [];
      const fetchRounds = burst.rounds.get('fetch') ?? [];
      const lowest = Math.min(...rounds.map((value, i) => (fetchRounds[i] ?? Number.NaN) / value));
      return [
        name,
        us(summary.median),
        (1e6 / summary.median).toFixed(0),
        toFetch ? ratio(toFetch.median) : '',
        ratio(lowest),
      ];
    }),
  );
}

export function heapTable(results: ReadonlyArray<[ContenderName, HeapResult]>): string {
  return table(
    ['client', 'heap before', 'heap after', 'retained', 'of which compiled code'],
    results.map(([name, { before, after, codeGrowth }]) => [
      name,
      kib(before),
      kib(after),
      kib(after - before),
      kib(codeGrowth),
    ]),
  );
}

export function coldImportTable(results: Map<string, ColdImport>): string {
  const baseline = [...results.values()][0];
  return table(
    ['import', 'wall median', 'wall p90', 'wall − baseline', 'CPU median', 'CPU − baseline'],
    [...results].map(([label, { wall, cpu }]) => [
      label,
      ms(wall.median),
      ms(wall.p90),
      ms(wall.median - (baseline?.wall.median ?? 0)),
      ms(cpu.median),
      ms(cpu.median - (baseline?.cpu.median ?? 0)),
    ]),
  );
}

/** Client CPU per call with a stub fetch: median, and the median minus raw fetch's. */
export function overheadTable(results: Overheads): string {
  const rows: string[][] = [];
  for (const [operation, timings] of results) {
    const floor = timings.get('fetch')?.median ?? 0;
    for (const [name, summary] of timings) {
      rows.push([
        operation,
        name,
        us1(summary.median),
        us1(summary.p90),
        us1(summary.median - floor),
      ]);
    }
  }
  return table(['operation', 'client', 'median', 'p90', 'median − fetch'], rows);
}

/** One row per operation and tracing state: median, p90 and the median over `off`'s. */
export function tracingTable(results: TracingOverheads): string {
  const rows: string[][] = [];
  for (const [operation, timings] of results) {
    const off = timings.get('off')?.median ?? 0;
    for (const [mode, summary] of timings) {
      rows.push([
        operation,
        mode,
        us1(summary.median),
        us1(summary.p90),
        us1(summary.median - off),
      ]);
    }
  }
  return table(['operation', 'tracing', 'median', 'p90', 'median − off'], rows);
}

/** Heap allocated per call with a stub fetch, and the difference to ky + policy's. */
export function allocationTable(results: Allocations): string {
  const rows: string[][] = [];
  for (const [operation, perContender] of results) {
    const floor = perContender.get(KY_FLOOR);
    for (const [name, bytes] of perContender) {
      rows.push([operation, name, kib(bytes), floor === undefined ? '' : signedKib(bytes - floor)]);
    }
  }
  return table(['operation', 'client', 'allocated per call', `− ${KY_FLOOR}`], rows);
}

export function bundleTable(sizes: readonly BundleSize[]): string {
  return table(
    ['app', 'min', 'min + gzip', 'minified bytes by package'],
    sizes.map((size) => [
      size.label,
      kib(size.minified),
      kib(size.gzipped),
      size.byPackage.map(([name, bytes]) => `${name} ${kib(bytes)}`).join(', '),
    ]),
  );
}

/**
 * MCP tool calls: CPU per call in each mode, in ms, and each mode's difference to pass-through
 * (the median of the per-round differences).
 */
export function mcpAuthTable(result: McpAuthResult): string {
  const msCpu = (micros: number) => `${(micros / 1000).toFixed(3)} ms`;
  const signedMs = (micros: number) => `${micros < 0 ? '−' : '+'}${msCpu(Math.abs(micros))}`;
  return table(
    ['mode', 'CPU per call (median)', 'p90 of rounds', '− pass-through (median of rounds)'],
    [...result.perCall].map(([mode, summary]) => [
      mode,
      msCpu(summary.median),
      msCpu(summary.p90),
      signedMs(result.overPassThrough.get(mode) ?? Number.NaN),
    ]),
  );
}

/** One verdict per target of docs/maintainers/performance.md. */
export interface Verdict {
  target: string;
  measured: string;
  met: boolean;
}

export function targetTable(verdicts: readonly Verdict[]): string {
  return table(
    ['target', 'measured', 'met'],
    verdicts.map((v) => [v.target, v.measured, v.met ? 'yes' : '**no**']),
  );
}
