/**
 * agentchat/otel as users start it: listed in `instrumentations` of sdk-node's NodeSDK, which
 * registers its own context manager and W3C propagator.
 */
import { trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { AgentChatInstrumentation } from '../../src/otel/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { parentOf, traceparentOf } from '../helpers/otel-sdk.js';

const apiKey = 'sk_test_2b4d6f8a0c1e3a5b';
const exporter = new InMemorySpanExporter();
const sdk = new NodeSDK({
  serviceName: 'agentchat-tests',
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
  instrumentations: [new AgentChatInstrumentation()],
  // Nothing is sent anywhere: no exporter of its own, no resource detection over the network.
  resourceDetectors: [],
  metricReaders: [],
  logRecordProcessors: [],
});
let server: MockServer;

beforeAll(async () => {
  sdk.start();
  server = await startMockServer({ apiKeys: [apiKey] });
});
afterAll(async () => {
  await server.close();
  await sdk.shutdown();
});

it("records the call and its attempt under the caller's span, and sends the attempt's context", async () => {
  const client = new Client({ apiKey, baseUrl: server.baseUrl });
  await trace.getTracer('app').startActiveSpan('job', async (span) => {
    try {
      await client.chat.send({
        projectId: (await client.projects.create({ name: 'SDK', agentId: 'agent_1' })).id,
        message: 'Hello',
      });
    } finally {
      span.end();
    }
  });
  const spans = exporter.getFinishedSpans();
  const [job] = spans.filter((span) => span.name === 'job');
  const calls = spans.filter((span) => ['projects.create', 'chat.send'].includes(span.name));
  expect(calls.map((span) => span.name)).toEqual(['projects.create', 'chat.send']);
  expect(calls.map((span) => parentOf(span))).toEqual([
    job?.spanContext().spanId,
    job?.spanContext().spanId,
  ]);
  const attempts = spans.filter((span) => span.name === 'POST');
  expect(attempts.map((span) => parentOf(span))).toEqual(
    calls.map((span) => span.spanContext().spanId),
  );
  expect(server.service.requestLog().map((request) => request.headers.traceparent)).toEqual(
    attempts.map((span) => traceparentOf(span)),
  );
});
