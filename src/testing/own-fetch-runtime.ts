import { ConfigurationError } from '../core/errors/configuration-error.js';
import { mswMajor } from './node-version.js';

/**
 * The runtime, when it is one whose `fetch` is its own rather than Node.js's undici: Bun or Deno,
 * with its version (`Bun 1.4.5`); `undefined` elsewhere.
 */
function runtimeWithOwnFetch(): string | undefined {
  const runtime = globalThis as {
    Bun?: { version?: string };
    Deno?: { version?: { deno?: string } };
  };
  if (runtime.Bun !== undefined) return `Bun ${runtime.Bun.version ?? ''}`.trim();
  if (runtime.Deno !== undefined) return `Deno ${runtime.Deno.version?.deno ?? ''}`.trim();
  return undefined;
}

/**
 * Throws where msw's `setupServer` would let every request through to the network: msw 3 on Bun
 * or Deno. msw 3 intercepts in Node.js by watching `node:net` sockets, which Node.js's fetch
 * writes to and Bun's and Deno's own fetch never touch; msw 2 replaced `fetch` itself, which
 * works on every runtime. A real port (`startMockServer`) needs no interception at all.
 *
 * @throws ConfigurationError naming the runtime and the two setups that work there.
 * @example
 * ```ts
 * assertSetupServerIntercepts(); // before strictListen starts msw's server
 * ```
 */
export function assertSetupServerIntercepts(): void {
  const runtime = runtimeWithOwnFetch();
  if (runtime === undefined || mswMajor() < 3) return;
  const name = runtime.split(' ')[0];
  throw new ConfigurationError(
    `agentchat/testing: msw ${mswMajor()}'s setupServer cannot intercept fetch on ${runtime}: it watches Node.js's sockets, which ${name}'s own fetch does not use, so every request would reach the network. ` +
      `On ${name}, install msw 2 (npm install --save-dev msw@^2.7), or serve the mock on a port with startMockServer().`,
  );
}
