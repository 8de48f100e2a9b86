/**
 * Loads the signing module, the one that imports jose, when the first assertion is signed.
 *
 * This one line has a built file of its own (an entry in tsup.config.ts) for webpack's sake.
 * webpack makes a chunk for every `import()` it parses, before minifying drops unused code, and
 * with that chunk a loader of chunks: 1 KiB in every app, OAuth or not, had the `import()` been
 * in the client's own file. In a module of its own, which an app without OAuth never uses,
 * webpack drops it whole (the package has no side effects), `import()` and all.
 */
export const loadSigning = () => import('./sign-assertion.js');
