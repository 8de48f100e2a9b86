import mswManifest from 'msw/package.json' with { type: 'json' };

/**
 * The major version of the msw these tests run on: 3 in the `node` project, 2 in `mock on msw 2`
 * (vitest.config.ts points every import of msw at msw 2 there).
 */
export const mswMajor = Number(mswManifest.version.split('.')[0]);
