/**
 * What differs between the majors of the AI SDK that the `ai` peer range allows (6 and 7), for
 * the tests that run at both ends of it (`npm run test:lowest` installs 6.0.0, the repository
 * and `npm run test:newest` the newest 7): each asserts what the installed major does.
 */
import semver from 'semver';
import { installedVersion } from '../helpers/installed-version.js';

/** The major of the `ai` package the tests import. */
export const aiMajor = semver.major(installedVersion('ai'));

/**
 * Whether the AI SDK reads `toolApproval` on the call or the agent. AI SDK 7 does, before a
 * tool's own `needsApproval`; AI SDK 6 has no such setting, so a `toolApproval` given to it is
 * never read and each tool's `needsApproval` alone decides (docs/agent-frameworks.md says so).
 */
export const readsToolApproval = aiMajor >= 7;

/**
 * The start of the text a model reads of a failed tool call whose error is the SDK's `name`:
 * AI SDK 7 writes the error as `name: message`, AI SDK 6 as its message alone.
 */
export function modelErrorStart(name: string): string {
  return aiMajor >= 7 ? `${name}: ` : '';
}
