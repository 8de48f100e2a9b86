/**
 * The only module that uses jose: key import and JWT signing for `private_key_jwt`, and the
 * reading of a key's own algorithm, which only signing needs. It is loaded
 * by a dynamic import when the first assertion is signed, and names the three jose functions it
 * needs rather than the whole namespace, so a bundler keeps just those: in a chunk of its own
 * where it splits code, inlined where it does not, and nowhere in an app without OAuth.
 */
import { importJWK, importPKCS8, type JWK, SignJWT } from 'jose';
// Types only: a value imported from the provider's modules would make a bundler share a chunk
// between them and this lazily loaded one, and that alone changes every app's bundle.
import type { PrivateJwk, PrivateKey, SigningAlgorithm } from './client-assertion.js';

/** Imports a key for signing `algorithm`; a `CryptoKey` is used as it is. */
export function importSigningKey(
  privateKey: PrivateKey,
  algorithm: string,
): Promise<CryptoKey | Uint8Array> {
  if (typeof privateKey === 'string') return importPKCS8(privateKey, algorithm);
  if (typeof CryptoKey !== 'undefined' && privateKey instanceof CryptoKey)
    return Promise.resolve(privateKey);
  return importJWK(privateKey as JWK, algorithm);
}

/** Signs a JWT with `header` (which holds `alg`) and `claims`. */
export function signJwt(
  header: { readonly alg: string } & Record<string, string>,
  claims: Record<string, string | number>,
  key: CryptoKey | Uint8Array,
): Promise<string> {
  return new SignJWT(claims).setProtectedHeader(header).sign(key);
}

/**
 * The algorithm a key is made for, when nothing says otherwise: a JWK's `alg` or its curve, a
 * CryptoKey's algorithm, a PEM's algorithm identifier; RS256 when none says.
 */
export function algorithmOf(privateKey: PrivateKey): SigningAlgorithm {
  if (typeof privateKey === 'string') return pemAlgorithm(privateKey) ?? 'RS256';
  if (typeof CryptoKey !== 'undefined' && privateKey instanceof CryptoKey) {
    return cryptoKeyAlgorithm(privateKey.algorithm) ?? 'RS256';
  }
  const jwk = privateKey as PrivateJwk;
  if (typeof jwk.alg === 'string' && /^(?:[RPE]S(?:256|384|512)|EdDSA)$/.test(jwk.alg)) {
    return jwk.alg as SigningAlgorithm;
  }
  if (jwk.kty === 'EC') return curveAlgorithm(jwk.crv) ?? 'ES256';
  if (jwk.kty === 'OKP') return 'EdDSA';
  return 'RS256';
}

function curveAlgorithm(curve: unknown): SigningAlgorithm | undefined {
  if (curve === 'P-256') return 'ES256';
  if (curve === 'P-384') return 'ES384';
  if (curve === 'P-521') return 'ES512';
  return undefined;
}

function cryptoKeyAlgorithm(algorithm: KeyAlgorithm): SigningAlgorithm | undefined {
  const { name } = algorithm;
  if (name === 'ECDSA') return curveAlgorithm((algorithm as EcKeyAlgorithm).namedCurve);
  if (name === 'Ed25519') return 'EdDSA';
  const hash = (algorithm as RsaHashedKeyAlgorithm).hash?.name;
  const bits = hash === 'SHA-384' ? '384' : hash === 'SHA-512' ? '512' : '256';
  if (name === 'RSA-PSS') return `PS${bits}` as SigningAlgorithm;
  if (name === 'RSASSA-PKCS1-v1_5') return `RS${bits}` as SigningAlgorithm;
  return undefined;
}

/**
 * Object identifiers (DER) of the keys a PKCS#8 PEM may hold, found in its algorithm identifier,
 * which comes within the first few dozen bytes.
 */
const pemAlgorithms: readonly (readonly [string, SigningAlgorithm])[] = [
  ['06082a8648ce3d030107', 'ES256'], // prime256v1
  ['06052b81040022', 'ES384'], // secp384r1
  ['06052b81040023', 'ES512'], // secp521r1
  ['06032b6570', 'EdDSA'], // Ed25519
  ['06092a864886f70d01010a', 'PS256'], // RSASSA-PSS
  ['06092a864886f70d010101', 'RS256'], // rsaEncryption
];

function pemAlgorithm(pem: string): SigningAlgorithm | undefined {
  const body = pem.replace(/-----[^-]+-----|\s/g, '');
  let head: string;
  try {
    head = Array.from(atob(body).slice(0, 48), (c) =>
      c.charCodeAt(0).toString(16).padStart(2, '0'),
    ).join('');
  } catch {
    // Not Base64: the import says so, without quoting it.
    return undefined;
  }
  return pemAlgorithms.find(([oid]) => head.includes(oid))?.[1];
}
