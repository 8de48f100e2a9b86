import { isMissingPackage } from '../internal/missing-package.js';

/** The optional peers agentchat/otel cannot load without. */
const PEERS = ['@opentelemetry/api', '@opentelemetry/instrumentation'] as const;

/**
 * The instrumentation's module, loaded by `load` (a dynamic `import()` in the ESM build, `require`
 * in the CJS one), or an error naming the peer to install when one is missing: without this,
 * importing agentchat/otel fails with the runtime's bare ERR_MODULE_NOT_FOUND.
 *
 * @example
 * ```ts
 * const { AgentChatInstrumentation } = await withPeers(() => import('./instrumentation.js'));
 * ```
 */
export function withPeers<T>(load: () => T): T {
  try {
    const loaded = load();
    return loaded instanceof Promise ? (loaded.catch(rethrow) as T) : loaded;
  } catch (error) {
    return rethrow(error);
  }
}

function rethrow(error: unknown): never {
  const missing = PEERS.find((name) => isMissingPackage(error, name));
  if (missing === undefined) throw error;
  throw new Error(
    `agentchat/otel needs ${missing}, an optional peer dependency of agentchat: npm install ${PEERS.join(' ')}`,
    { cause: error },
  );
}
