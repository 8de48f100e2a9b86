/**
 * The runtimes the packed package is proven on, in one place. `npm run test:package` runs the
 * end-to-end scenario on each of them; README's "Requirements" and package.json's `engines` state
 * exactly this list, and test/package/requirements.test.ts keeps the three in step.
 *
 * Every runtime ships as a binary inside an npm package, so the registry is the only source.
 */

/**
 * Node.js: the oldest and the newest release of each supported line. The floor of the 22 line is
 * 22.12.0 because msw, which `agentchat/testing` needs, requires it.
 */
export const nodeVersions = [
  '22.12.0',
  '22.23.3',
  '24.0.0',
  '24.21.0',
  '26.0.0',
  '26.10.0',
] as const;

/** Bun, from `@oven/bun-<platform>-<arch>`. */
export const bunVersion = '1.4.5';

/** Deno, from `@deno/<platform>-<arch>-glibc`. */
export const denoVersion = '2.9.6';

/** Cloudflare's workerd, driven through miniflare (which pins its workerd release). */
export const miniflareVersion = '4.20260730.0';
/** The workerd release that {@link miniflareVersion} pins; checked after install. */
export const workerdVersion = '1.20260730.1';
/** Compatibility date the test worker runs with: the oldest date the README promises. */
export const workerCompatibilityDate = '2026-07-01';

/** Older TypeScript major whose type-checking of the package is proven beside the repo's own. */
export const olderTypeScriptVersion = '5.9.3';

/** `engines.node` as package.json must state it: the proven lines, from each line's floor. */
export function nodeEnginesRange(): string {
  const floors = new Map<string, string>();
  for (const version of nodeVersions) {
    const major = version.split('.')[0] ?? version;
    if (!floors.has(major)) floors.set(major, version);
  }
  return [...floors.values()].map((floor) => `^${floor}`).join(' || ');
}
