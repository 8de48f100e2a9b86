/**
 * The soak suite (`npm run test:soak`, test/soak/vitest.config.ts) runs some of `npm test`'s
 * memory proofs again, the same code at a soak's length: tens of thousands of requests where
 * `npm test` sends what its bound needs. Such a proof takes its length from `atLength`.
 */

/** Set by test/soak/vitest.config.ts for every file it runs. */
export const SOAK_VARIABLE = 'AGENTCHAT_SOAK';

/** `lengths.test` in `npm test`, `lengths.soak` in the soak suite. */
export function atLength<T>(lengths: { readonly test: T; readonly soak: T }): T {
  return process.env[SOAK_VARIABLE] === '1' ? lengths.soak : lengths.test;
}
