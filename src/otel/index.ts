/**
 * OpenTelemetry for agentchat: {@link AgentChatInstrumentation} records each call and attempt of
 * the client as spans, sends their W3C trace context to the service, and records the
 * `http.client.request.duration` histogram. It subscribes to the client's diagnostics channels, so
 * it works on Node, Bun and Deno; in browsers and Workers, use the middleware recipe of
 * docs/observability.md. Needs the optional peer dependencies `@opentelemetry/api` (^1.9) and
 * `@opentelemetry/instrumentation`.
 *
 * @example
 * ```ts
 * import { registerInstrumentations } from '@opentelemetry/instrumentation';
 * import { AgentChatInstrumentation } from 'agentchat/otel';
 *
 * registerInstrumentations({ instrumentations: [new AgentChatInstrumentation()] });
 * ```
 *
 * @packageDocumentation
 * @module agentchat/otel
 */
export {
  AgentChatInstrumentation,
  type AgentChatInstrumentationConfig,
} from './instrumentation.js';
