// Type-checked by test/package/entry-types.test.ts in a project with OpenTelemetry's API and
// instrumentation as its only peers: the instrumentation as registerInstrumentations takes it.
import { type Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { AgentChatInstrumentation, type AgentChatInstrumentationConfig } from 'agentchat/otel';

export function usageOfTheInstrumentation(): Instrumentation {
  const config: AgentChatInstrumentationConfig = { enabled: true };
  const instrumentation = new AgentChatInstrumentation(config);
  // @ts-expect-error the config is an object
  new AgentChatInstrumentation('on');
  registerInstrumentations({ instrumentations: [instrumentation] });
  return instrumentation;
}
