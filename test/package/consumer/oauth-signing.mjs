// Enterprise OAuth host: `<runtime> oauth-signing.mjs <esm|cjs> <issuer> <clientId> <keyId> <pem>
// <jwk>` loads the package by `import` or `require`, finds the token endpoint by issuer discovery
// and gets a token with private_key_jwt, once signing with the PEM and once with the JWK, then
// prints one JSON line: how many distinct tokens each provider got, and a stranger's refusal.
import { createRequire } from 'node:module';

const [build, issuer, clientId, keyId, pem, jwk] = process.argv.slice(2);
const { clientCredentials, OAuthError } =
  build === 'cjs' ? createRequire(import.meta.url)('agentchat') : await import('agentchat');
const result = {};
for (const [kind, privateKey] of [
  ['pem', pem],
  ['jwk', JSON.parse(jwk)],
]) {
  const apiKey = clientCredentials({ issuer, clientId, keyId, privateKey });
  const first = await apiKey({});
  // The service refused it: a second token request, with a fresh assertion.
  const second = await apiKey({ rejected: first });
  result[kind] = { tokens: new Set([first, second]).size, opaque: /^[\w-]+$/.test(first) };
}
// A key the server does not know: its refusal, as the SDK's error.
const stranger = clientCredentials({ issuer, clientId: 'nobody', privateKey: pem });
result.refused = await Promise.resolve(stranger({})).then(
  () => 'granted',
  (error) => (error instanceof OAuthError ? error.error : String(error)),
);
console.log(JSON.stringify(result));
