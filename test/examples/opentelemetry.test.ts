/**
 * examples/opentelemetry.ts runs as a user would run it (`npx tsx`), with its own mock service
 * and the real OpenTelemetry SDK, and prints the spans of a retried call as JSON.
 */
import { describe, expect, it } from 'vitest';
import { runProcess, tsxLoader } from '../helpers/run-process.js';

interface PrintedSpan {
  name: string;
  kind: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  status: string;
  attributes: Record<string, unknown>;
}

interface Report {
  project: string;
  spans: PrintedSpan[];
  traceparentsReceived: (string | undefined)[];
}

describe('examples/opentelemetry.ts', { timeout: 30_000 }, () => {
  it('prints a span per attempt of a retried call, and the traceparent each one sent', async () => {
    const { code, stdout, stderr } = await runProcess(
      process.execPath,
      [...tsxLoader, 'examples/opentelemetry.ts'],
      { env: { ...process.env, AGENTCHAT_LOG: '' } },
    );

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.project).toMatch(/^proj_\w+$/);

    const attempts = report.spans.filter((span) => span.kind === 'CLIENT');
    const parent = report.spans.find((span) => span.name === 'create support project');
    expect(attempts).toHaveLength(2);
    expect(report.spans).toHaveLength(3);

    const [first, retry] = attempts;
    const url = new URL(String(first?.attributes['url.full']));
    expect(url.pathname).toBe('/api/v1/projects');
    const shared = {
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(url.port),
      'url.full': url.href,
      'agentchat.operation': 'projects.create',
    };
    expect(first).toMatchObject({ name: 'POST', status: 'ERROR' });
    expect(first?.attributes).toEqual({
      ...shared,
      'http.response.status_code': 503,
      'http.response.header.x-request-id': [expect.stringMatching(/^req_\w+$/)],
      'error.type': '503',
    });
    expect(retry).toMatchObject({ name: 'POST', status: 'UNSET' });
    expect(retry?.attributes).toEqual({
      ...shared,
      'http.request.resend_count': 1,
      'http.response.status_code': 201,
      'http.response.header.x-request-id': [expect.stringMatching(/^req_\w+$/)],
    });

    // One trace: both attempts are children of the application's span, and the service received
    // each attempt's own span id, so it can join the trace.
    for (const span of attempts) {
      expect(span.traceId).toBe(parent?.traceId);
      expect(span.parentSpanId).toBe(parent?.spanId);
    }
    expect(report.traceparentsReceived).toEqual(
      attempts.map((span) => `00-${span.traceId}-${span.spanId}-01`),
    );

    // The example's key appears in no span, nor anywhere else it printed.
    expect(stdout).not.toContain('sk_example_key');
    expect(stdout).not.toMatch(/bearer|authorization/i);
  });
});
