/**
 * Cold import time: a fresh `node` process that imports one package and exits, timed from spawn to
 * exit, against a bare `node -e 0`. Packages resolve from the repository root, so `agentchat` is
 * the built dist (through the package's own `exports`), in its ESM and its CJS build.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { rotate, type Summary, summarize } from './stats.js';

/** One thing to load in a fresh process. */
export interface ImportCase {
  label: string;
  /** Code for `node -e`. */
  code: string;
}

/** The cases, baseline first. ky and zod/mini alone show what the SDK's dependencies cost. */
export const IMPORT_CASES: readonly ImportCase[] = [
  { label: 'node -e 0 (baseline)', code: '0' },
  { label: 'agentchat ESM', code: "import('agentchat')" },
  { label: 'agentchat CJS', code: "require('agentchat')" },
  { label: 'openai ESM', code: "import('openai')" },
  { label: 'openai CJS', code: "require('openai')" },
  { label: 'ky ESM (dependency)', code: "import('ky')" },
  { label: 'zod/mini ESM (dependency)', code: "import('zod/mini')" },
];

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Prepended to every case, the baseline included: at exit the child writes its CPU time (user +
 * system, all threads) to stderr. Unlike wall time, that barely moves when other processes
 * compete for the cores.
 */
const REPORT_CPU =
  "process.on('exit',()=>{const u=process.cpuUsage();require('node:fs').writeSync(2,'cpu:'+(u.user+u.system))});";

/** Wall and CPU time of one case's fresh processes, in milliseconds. */
export interface ColdImport {
  wall: Summary;
  cpu: Summary;
}

/**
 * Spawns each case `runs` times, interleaved, and summarizes wall time in milliseconds. The
 * environment is cleaned of anything that would make the start warmer or slower than a user's:
 * loaders (NODE_OPTIONS, which tsx may set) and Node's on-disk compile cache.
 */
export function measureColdImports(runs: number): Map<string, ColdImport> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_COMPILE_CACHE;
  const samples = new Map(
    IMPORT_CASES.map((c) => [c.label, { wall: [] as number[], cpu: [] as number[] }]),
  );
  for (let round = 0; round < runs + 1; round++) {
    for (const { label, code } of rotate(IMPORT_CASES, round)) {
      const started = performance.now();
      const child = spawnSync(process.execPath, ['-e', REPORT_CPU + code], {
        cwd: root,
        env,
        stdio: 'pipe',
      });
      const elapsed = performance.now() - started;
      const stderr = child.stderr.toString();
      const cpu = /cpu:(\d+)$/.exec(stderr)?.[1];
      if (child.status !== 0 || cpu === undefined) {
        throw new Error(`node -e "${code}" failed: ${stderr.trim()}`);
      }
      // Round 0 warms the OS file cache: a "cold" start here means a new process, not a cold disk.
      if (round === 0) continue;
      samples.get(label)?.wall.push(elapsed);
      samples.get(label)?.cpu.push(Number(cpu) / 1000);
    }
  }
  return new Map(
    [...samples].map(([label, { wall, cpu }]) => [
      label,
      { wall: summarize(wall), cpu: summarize(cpu) },
    ]),
  );
}
