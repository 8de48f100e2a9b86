/**
 * Runs a command several times in a row with the CPU kept busy beside it, to prove that tests do
 * not depend on an idle machine (a test that waits on wall time, or moves a fake clock while real
 * work is under way, fails here first).
 *
 *   npx tsx scripts/under-load.ts [--runs 5] [--hogs <n>] -- npm test
 *
 * `--hogs` busy threads (default: one per core) spin for as long as the runs last; the runs stop
 * at the first failure, whose exit code this script returns. Each run's time is printed.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

const separator = process.argv.indexOf('--');
if (separator === -1 || separator === process.argv.length - 1) {
  console.error('Usage: tsx scripts/under-load.ts [--runs 5] [--hogs <n>] -- <command> [args...]');
  process.exit(2);
}
const { values } = parseArgs({
  args: process.argv.slice(2, separator),
  options: { runs: { type: 'string' }, hogs: { type: 'string' } },
});
const runs = Number(values.runs ?? 5);
const hogs = Number(values.hogs ?? availableParallelism());
const [command = '', ...args] = process.argv.slice(separator + 1);

// A thread that never yields: the load `stress --cpu` makes, without a system package.
const spin = 'for (;;) {}';
const workers = Array.from({ length: hogs }, () => new Worker(spin, { eval: true }));

function runOnce(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let exitCode = 0;
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  exitCode = await runOnce();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `under-load: run ${run} of ${runs} ${exitCode === 0 ? 'passed' : `failed (exit ${exitCode})`} in ${seconds} s beside ${hogs} busy threads`,
  );
  if (exitCode !== 0) break;
}
await Promise.all(workers.map((worker) => worker.terminate()));
process.exit(exitCode);
