// Issuer discovery and private_key_jwt, shared by the runtimes' host (oauth-signing.mjs) and the
// worker (oauth-worker.mjs): a token with the PEM and one with the JWK, each provider asked twice
// (the second time as after the service refused the first token, so a fresh assertion is signed),
// and a stranger's key refused. Answers what a test compares.
export async function runOAuthScenario(sdk, { issuer, clientId, keyId, pem, jwk }) {
  const { clientCredentials, OAuthError } = sdk;
  const result = {};
  for (const [kind, privateKey] of [
    ['pem', pem],
    ['jwk', JSON.parse(jwk)],
  ]) {
    const apiKey = clientCredentials({ issuer, clientId, keyId, privateKey });
    const first = await apiKey({});
    const second = await apiKey({ rejected: first });
    result[kind] = { tokens: new Set([first, second]).size, opaque: /^[\w-]+$/.test(first) };
  }
  const stranger = clientCredentials({ issuer, clientId: 'nobody', privateKey: pem });
  result.refused = await Promise.resolve(stranger({})).then(
    () => 'granted',
    (error) => (error instanceof OAuthError ? error.error : String(error)),
  );
  return result;
}
