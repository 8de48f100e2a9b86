/**
 * The version of this package; `npm run version` keeps it equal to package.json's. Outside
 * browsers it is sent as `User-Agent: agentchat-js/<version>`.
 *
 * @example
 * ```ts
 * console.log(`agentchat ${VERSION}`);
 * ```
 */
export const VERSION = '1.2.0';
