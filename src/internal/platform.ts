import { userAgent as serverUserAgent } from '../core/server-runtime.js';
import { VERSION } from '../version.js';

/**
 * True in a web page or a web worker: places where anyone who opens the page can read a key.
 * Server runtimes that borrow browser globals (Deno, Bun, Cloudflare Workers) are not browsers.
 */
export function isBrowserLike(): boolean {
  const g = globalThis as {
    window?: unknown;
    document?: unknown;
    WorkerGlobalScope?: abstract new () => unknown;
    navigator?: { userAgent?: string };
  };
  if (typeof g.window === 'object' && typeof g.document === 'object') return true;
  return (
    typeof g.WorkerGlobalScope === 'function' &&
    globalThis instanceof g.WorkerGlobalScope &&
    g.navigator?.userAgent !== 'Cloudflare-Workers'
  );
}

/**
 * The `User-Agent` every request sends, naming this SDK to the service, and after it the
 * application (`appInfo`) when one is named; `undefined` in a browser, which forbids setting it.
 * The application's part is built by server-runtime.ts, which browsers' builds leave out.
 */
export function userAgent(appInfo?: Parameters<typeof serverUserAgent>[1]): string | undefined {
  return isBrowserLike() ? undefined : serverUserAgent(`agentchat-js/${VERSION}`, appInfo);
}

/** True for a host name that never leaves this machine: `localhost`, `127.0.0.0/8`, `[::1]`. */
export function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}
