/**
 * The key the front signs its access tokens with: the one `AGENTCHAT_SIGNING_KEY` gives (a
 * private JWK as JSON, or a PEM: PKCS#8, SEC1 EC or PKCS#1 RSA, as openssl writes them), so that
 * every replica signs and verifies alike, or one made at start for a single process. Node's own
 * crypto reads every shape and exports the JWK oidc-provider signs with; jose makes a key.
 */
import { createHash, createPrivateKey } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { ConfigurationError } from '../../index.js';
import { PEM_KINDS } from './options.js';

/** A private signing key as oidc-provider's `jwks` takes it, with its `kid` and `alg`. */
export interface SigningKey {
  readonly privateJwk: JWK & { readonly kid: string; readonly alg: string };
  /** The public half, for the local key set the verifier checks tokens with. */
  readonly publicJwk: JWK;
}

/** The JWS algorithm each key type signs with (RFC 7518, RFC 8037). */
const ALGORITHM_OF: Readonly<Record<string, string>> = {
  RSA: 'RS256',
  'EC/P-256': 'ES256',
  'EC/P-384': 'ES384',
  'EC/P-521': 'ES512',
  'OKP/Ed25519': 'EdDSA',
};

/** The members of a private JWK that are secret: never in the public half. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * The signing key `setting` gives, or a fresh ES256 one when it is `undefined`.
 *
 * @throws {@link ConfigurationError} when the setting is neither a private JWK nor an unencrypted
 * private key PEM of a key type that signs; the message never quotes the setting.
 */
export async function loadSigningKey(setting: string | object | undefined): Promise<SigningKey> {
  let jwk: JWK;
  if (setting === undefined) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    jwk = await exportJWK(privateKey);
  } else {
    jwk = privateJwkOf(setting);
  }
  const type = jwk.kty === 'RSA' ? 'RSA' : `${jwk.kty}/${jwk.crv}`;
  const alg = jwk.alg ?? ALGORITHM_OF[type];
  if (alg === undefined || !Object.values(ALGORITHM_OF).includes(alg)) {
    throw new ConfigurationError(
      `AGENTCHAT_SIGNING_KEY: a ${type} key cannot sign access tokens; give an RSA, P-256, P-384, P-521 or Ed25519 private key.`,
    );
  }
  const publicJwk = Object.fromEntries(
    Object.entries(jwk).filter(([name]) => !PRIVATE_MEMBERS.includes(name)),
  ) as JWK;
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicJwk));
  return {
    privateJwk: { ...jwk, kid, alg, use: 'sig' },
    publicJwk: { ...publicJwk, kid, alg, use: 'sig' },
  };
}

/**
 * A secret derived from the signing key, for what replicas must share besides it (the keys
 * oidc-provider signs its cookies with): one setting, not two.
 */
export function derivedSecret(key: SigningKey, purpose: string): string {
  return createHash('sha256')
    .update(`agentchat-mcp ${purpose}\0${JSON.stringify(key.privateJwk)}`)
    .digest('base64url');
}

function privateJwkOf(setting: string | object): JWK {
  try {
    const given =
      typeof setting === 'string'
        ? setting.trimStart().startsWith('{')
          ? (JSON.parse(setting) as JWK)
          : undefined
        : (setting as JWK);
    const key =
      given === undefined
        ? createPrivateKey(setting as string)
        : createPrivateKey({ key: given as never, format: 'jwk' });
    if (key.type !== 'private') throw new Error('not private');
    const jwk = key.export({ format: 'jwk' }) as JWK;
    return { ...jwk, ...(given?.kid && { kid: given.kid }), ...(given?.alg && { alg: given.alg }) };
  } catch {
    // Never the parser's message: it may quote the key.
    throw new ConfigurationError(
      `AGENTCHAT_SIGNING_KEY is not a private key: give a private JWK (JSON) or an unencrypted PEM (${PEM_KINDS}).`,
    );
  }
}
