// Loads the ESM build with `import` and the CJS build with `require` in one process, and checks
// that errors thrown by either copy are `instanceof` the other copy's classes.
// `node dual.mjs <baseUrl>` prints the findings as one JSON line.
import { createRequire } from 'node:module';
import * as esm from 'agentchat';

const cjs = createRequire(import.meta.url)('agentchat');
const [baseUrl] = process.argv.slice(2);

/** A NotFoundError and a RequestValidationError from a client of the given copy. */
async function errorsFrom(sdk) {
  const client = new sdk.Client({ apiKey: 'sk_test_package', baseUrl, maxRetries: 0 });
  const notFound = await client.projects.get('proj_does_not_exist').catch((error) => error);
  const invalid = await client.chat.send({ projectId: '', message: '' }).catch((error) => error);
  return { notFound, invalid };
}

/** How errors of one copy look through the classes and guards of the other. */
function seenBy(sdk, { notFound, invalid }) {
  return {
    notFoundIsNotFoundError: notFound instanceof sdk.NotFoundError,
    notFoundIsAPIError: notFound instanceof sdk.APIError,
    notFoundIsAgentChatError: notFound instanceof sdk.AgentChatError,
    notFoundIsConflictError: notFound instanceof sdk.ConflictError,
    notFoundPassesIsAPIError: sdk.isAPIError(notFound),
    invalidIsRequestValidationError: invalid instanceof sdk.RequestValidationError,
    invalidIsAgentChatError: invalid instanceof sdk.AgentChatError,
    invalidIsAPIError: invalid instanceof sdk.APIError,
    invalidPassesIsAgentChatError: sdk.isAgentChatError(invalid),
  };
}

console.log(
  JSON.stringify({
    // Two copies really are loaded: the classes differ by identity.
    distinctCopies: esm.NotFoundError !== cjs.NotFoundError && esm.Client !== cjs.Client,
    cjsErrorsSeenByEsm: seenBy(esm, await errorsFrom(cjs)),
    esmErrorsSeenByCjs: seenBy(cjs, await errorsFrom(esm)),
  }),
);
