import * as msw from 'msw';

/** The Node.js release msw 3 needs (its `engines`); msw 2 runs on every Node.js this SDK supports. */
const MSW_3_NODE = { major: 22, minor: 12, text: '22.12.0' } as const;

/**
 * Throws when running on a Node.js older than the installed msw needs. Without this check, msw 3
 * on Node.js 20 loads fine and then fails every intercepted request with
 * "Promise.withResolvers is not a function", which a client retries and reports as a network
 * failure. Browsers, Bun and Deno are left alone: msw's requirement is about Node.js.
 *
 * @throws Error naming the Node.js version needed, and msw 2 as the way to stay on this one.
 * @example
 * ```ts
 * assertNodeRunsMsw(); // at import time of agentchat/testing
 * ```
 */
export function assertNodeRunsMsw(): void {
  const version = nodeVersion();
  if (version === undefined || mswMajor() < 3) return;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > MSW_3_NODE.major || (major === MSW_3_NODE.major && minor >= MSW_3_NODE.minor)) {
    return;
  }
  throw new Error(
    `agentchat/testing: msw ${mswMajor()} needs Node.js ${MSW_3_NODE.text} or later, and this is Node.js ${version}. ` +
      'Upgrade Node.js, or install msw 2 (npm install --save-dev msw@^2.7), which runs on older Node.js.',
  );
}

/**
 * The major of the msw this module loads. msw exports no version; msw 3 moved `graphql` from its
 * root to `msw/graphql`, so a root without it is msw 3 or later.
 *
 * @example
 * ```ts
 * if (mswMajor() >= 3) console.log('msw 3: the guard is onUnhandledFrame');
 * ```
 */
export function mswMajor(): number {
  return 'graphql' in msw ? 2 : 3;
}

/** Node.js's version, or `undefined` on other runtimes (which may imitate `process.versions`). */
function nodeVersion(): string | undefined {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown; process?: NodeJS.Process };
  if (runtime.Bun !== undefined || runtime.Deno !== undefined) return undefined;
  return runtime.process?.versions?.node;
}
