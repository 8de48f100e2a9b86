/**
 * Load: 1,000 concurrent calls through one client against the mock HTTP server all resolve with
 * the right, unique projects, and nothing is left behind: no timer, no abort listener, and the
 * process exits at once when the work is done. Run in a child process, so that "exits at once"
 * is the real thing rather than a guess about this test runner's own handles.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

const child = fileURLToPath(new URL('./fixtures/load-child.ts', import.meta.url));
const calls = 1_000;

/** Runs the child to its end; resolves with its exit code and the report it printed on exit. */
async function runChild(): Promise<{
  code: number | null;
  report: Record<string, unknown>;
  stderr: string;
}> {
  // A developer's AGENTCHAT_LOG=debug would print a thousand lines into the report.
  const { code, stdout, stderr } = await runProcess(
    process.execPath,
    [...tsxLoader, child, String(calls)],
    { env: { ...process.env, AGENTCHAT_LOG: '' } },
  );
  const last = stdout.trim().split('\n').at(-1) ?? '';
  try {
    return { code, report: JSON.parse(last) as Record<string, unknown>, stderr };
  } catch {
    throw new Error(`the child printed no report (code ${code}):\n${stdout}\n${stderr}`);
  }
}

describe('1,000 concurrent calls through one client', () => {
  it('all resolve with unique ids, and the process exits at once with nothing left', async () => {
    const { code, report, stderr } = await runChild();

    expect(code).toBe(0);
    expect(report).toMatchObject({
      calls,
      uniqueIds: calls,
      answersMatch: true,
      // No call created twice, even if a connection had to be retried.
      stored: calls,
      abortListenersLeft: 0,
    });
    // No timer holds the loop once the work is done (the default attempt timeout alone is 60 s,
    // a backoff up to 8 s); sockets still closing are fine, they go within milliseconds.
    expect(report.resourcesLeft).not.toContain('Timeout');
    // Measured by the child's own 'exit' event: the time from "work done" to "process gone".
    // Generous against a loaded machine, yet far below any timer the client sets.
    expect(report.drainMs).toBeLessThan(3_000);
    expect(stderr).not.toMatch(/Warning|Error/);
  }, 120_000);
});
