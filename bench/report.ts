/** Markdown tables of the measurements, as docs/performance.md shows them. */
import type { BundleSize } from './bundle-size.js';
import type { ColdImport } from './cold-import.js';
import type { ContenderName } from './contenders.js';
import type { HeapResult } from './heap.js';
import type { BurstTimings, Timings } from './latency.js';
import type { Overheads } from './overhead.js';

const us = (value: number) => `${value.toFixed(0)} µs`;
const us1 = (value: number) => `${value.toFixed(1)} µs`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ratio = (value: number) => `${value.toFixed(2)}x`;

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** One row per operation and client: median and p90, and each as a ratio to raw fetch's. */
export function latencyTable(operations: ReadonlyArray<[string, Timings]>): string {
  const rows: string[][] = [];
  for (const [operation, timings] of operations) {
    const floor = timings.get('fetch');
    for (const [name, summary] of timings) {
      rows.push([
        operation,
        name,
        us(summary.median),
        us(summary.p90),
        floor ? ratio(summary.median / floor.median) : '',
        floor ? ratio(summary.p90 / floor.p90) : '',
      ]);
    }
  }
  return table(['operation', 'client', 'median', 'p90', 'median ÷ fetch', 'p90 ÷ fetch'], rows);
}

/** Bursts: time per request, and the ratio to raw fetch paired round by round. */
export function burstTable({ timings, ratios }: BurstTimings): string {
  return table(
    ['client', 'median', 'p90', 'median of round ratios ÷ fetch', 'p90 of round ratios'],
    [...timings].map(([name, summary]) => {
      const paired = ratios.get(name);
      return [
        name,
        us(summary.median),
        us(summary.p90),
        paired ? ratio(paired.median) : '',
        paired ? ratio(paired.p90) : '',
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

/** One verdict per target of docs/performance.md. */
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
