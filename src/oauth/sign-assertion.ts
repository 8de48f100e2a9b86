/**
 * The only module that uses jose: key import and JWT signing for `private_key_jwt`. It is loaded
 * by a dynamic import when the first assertion is signed, and names the three jose functions it
 * needs rather than the whole namespace, so a bundler keeps just those: in a chunk of its own
 * where it splits code, inlined where it does not, and nowhere in an app without OAuth.
 */
import { importJWK, importPKCS8, type JWK, SignJWT } from 'jose';
import type { PrivateKey } from './client-assertion.js';

/** Imports a key for signing `algorithm`; a `CryptoKey` is used as it is. */
export function importSigningKey(
  privateKey: PrivateKey,
  algorithm: string,
): Promise<CryptoKey | Uint8Array> {
  if (typeof privateKey === 'string') return importPKCS8(privateKey, algorithm);
  if (typeof CryptoKey !== 'undefined' && privateKey instanceof CryptoKey) {
    return Promise.resolve(privateKey);
  }
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
