// Enterprise OAuth host: `<runtime> oauth-signing.mjs <issuer> <clientId> <keyId> <pem> <jwk>`
// finds the token endpoint by issuer discovery and gets a token with private_key_jwt, once
// signing with the PEM and once with the JWK, then prints one JSON line: the token's kind and
// how many token requests each provider made.
import { clientCredentials, OAuthError } from 'agentchat';

const [issuer, clientId, keyId, pem, jwk] = process.argv.slice(2);
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
