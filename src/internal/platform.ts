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
 */
export function userAgent(appInfo?: {
  readonly name: string;
  readonly version?: string | undefined;
  readonly url?: string | undefined;
}): string | undefined {
  if (isBrowserLike()) return undefined;
  if (appInfo === undefined) return `agentchat-js/${VERSION}`;
  const { name, version, url } = appInfo;
  const product = version === undefined ? name : `${name}/${version}`;
  return `agentchat-js/${VERSION} ${product}${url === undefined ? '' : ` (${url})`}`;
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
