// Enterprise OAuth host: `<runtime> oauth-signing.mjs <esm|cjs> <issuer> <clientId> <keyId> <pem>
// <jwk>` loads the package by `import` or `require`, runs oauth-scenario.mjs against the
// authorization server, and prints its result as one JSON line.
import { createRequire } from 'node:module';
import { runOAuthScenario } from './oauth-scenario.mjs';

const [build, issuer, clientId, keyId, pem, jwk] = process.argv.slice(2);
const sdk =
  build === 'cjs' ? createRequire(import.meta.url)('agentchat') : await import('agentchat');
console.log(JSON.stringify(await runOAuthScenario(sdk, { issuer, clientId, keyId, pem, jwk })));
