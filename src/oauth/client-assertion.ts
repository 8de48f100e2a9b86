/**
 * Client authentication by assertion (RFC 7521, RFC 7523): a JWT the client signs with its own
 * private key (`private_key_jwt`), or one handed over by the platform it runs on (workload
 * identity: a Kubernetes service-account token, a CI OIDC token). Either way no shared secret is
 * sent, and each token request carries a fresh assertion.
 *
 * Signing uses jose over Web Crypto, so it runs wherever the SDK does; `sign-assertion.ts`, the
 * one module that imports jose, is loaded (by `load-signing.ts`) when the first assertion is
 * signed, so an app that never signs one never loads it.
 */
import { AgentChatError, OAuthError } from '../core/errors/index.js';
import { loadSigning } from './load-signing.js';

/** The `client_assertion_type` of a JWT assertion (RFC 7523 section 2.2). */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

import type { SigningAlgorithm } from './signing-algorithms.js';

export type { SigningAlgorithm };

/**
 * A private key for `private_key_jwt`: a PKCS#8 PEM string (`-----BEGIN PRIVATE KEY-----`), a
 * private JWK, or a Web Crypto `CryptoKey`.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 *
 * const privateKey: PrivateKey = readFileSync('client-key.pem', 'utf8');
 * ```
 */
export type PrivateKey = string | PrivateJwk | SigningCryptoKey;

/**
 * A JSON Web Key (RFC 7517), as `JSON.parse` of a key file gives it; a private one has `d`. The
 * members are written out here, rather than taken from the DOM library's `JsonWebKey`, so that a
 * Node project compiling without that library can use the types; the DOM's type fits this one.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 *
 * const privateKey = JSON.parse(readFileSync('client-key.jwk.json', 'utf8')) as PrivateJwk;
 * ```
 */
export interface PrivateJwk {
  /** Key type: `RSA`, `EC` or `OKP`. */
  kty?: string | undefined;
  /** The algorithm the key is meant for, such as `ES256`; it is the default `algorithm`. */
  alg?: string | undefined;
  /** The curve of an `EC` or `OKP` key, such as `P-256` or `Ed25519`. */
  crv?: string | undefined;
  /** The key's id. `keyId` is what the assertion's header names. */
  kid?: string | undefined;
  /** What the key is for: `sig` for signing. */
  use?: string | undefined;
  /** The operations the key allows, such as `["sign"]`. */
  key_ops?: string[] | undefined;
  /** Whether Web Crypto may export the key once imported. */
  ext?: boolean | undefined;
  /** The private part (RSA private exponent, or EC and OKP private key): a private key has it. */
  d?: string | undefined;
  /** RSA modulus. */
  n?: string | undefined;
  /** RSA public exponent. */
  e?: string | undefined;
  /** RSA first prime factor. */
  p?: string | undefined;
  /** RSA second prime factor. */
  q?: string | undefined;
  /** RSA first factor CRT exponent. */
  dp?: string | undefined;
  /** RSA second factor CRT exponent. */
  dq?: string | undefined;
  /** RSA first CRT coefficient. */
  qi?: string | undefined;
  /** EC or OKP public x coordinate. */
  x?: string | undefined;
  /** EC public y coordinate. */
  y?: string | undefined;
  /** A symmetric key's value, which `private_key_jwt` refuses. */
  k?: string | undefined;
}

/**
 * A Web Crypto key, as `crypto.subtle.importKey` or `generateKey` gives it, in any runtime. Its
 * members are written out for the same reason as {@link PrivateJwk}'s; the DOM's `CryptoKey` and
 * Node's `webcrypto.CryptoKey` both fit it.
 *
 * @example
 * ```ts
 * const { privateKey }: { privateKey: SigningCryptoKey } = await crypto.subtle.generateKey(
 *   { name: 'ECDSA', namedCurve: 'P-256' },
 *   false,
 *   ['sign', 'verify'],
 * );
 * ```
 */
export interface SigningCryptoKey {
  /** `private` for a key that can sign. */
  readonly type: string;
  /** Whether the key may be exported. */
  readonly extractable: boolean;
  /** The key's algorithm, such as `{ name: 'ECDSA', namedCurve: 'P-256' }`. */
  readonly algorithm: {
    /** The algorithm's name, such as `ECDSA` or `RSASSA-PKCS1-v1_5`. */
    readonly name: string;
  };
  /** What the key may do, such as `['sign']`. */
  readonly usages: readonly string[];
}

/**
 * How long an assertion is valid, in seconds: long enough for a slow token request and some
 * clock skew, well inside the 5 minutes servers such as Entra ID and Okta accept.
 */
const ASSERTION_LIFETIME_SECONDS = 120;

/** What an assertion is signed with. */
export interface SigningKey {
  readonly clientId: string;
  readonly privateKey: PrivateKey;
  readonly keyId?: string | undefined;
  readonly algorithm?: SigningAlgorithm | undefined;
  readonly certificateThumbprint?: string | undefined;
}

/**
 * Checks what can be checked of a key without importing it: a PEM must be PKCS#8, the one kind
 * Web Crypto imports. Answers the problem, in words that never quote the key, or `undefined`.
 */
export function privateKeyProblem(privateKey: unknown): string | undefined {
  if (typeof privateKey === 'string') {
    const label = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(privateKey)?.[1];
    if (label === 'PRIVATE KEY') return undefined;
    const convert =
      'convert it once with `openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem`';
    if (label === 'RSA PRIVATE KEY' || label === 'EC PRIVATE KEY') {
      return `is a ${label.startsWith('RSA') ? 'PKCS#1' : 'SEC1'} PEM (BEGIN ${label}); Web Crypto reads PKCS#8 only (BEGIN PRIVATE KEY): ${convert}`;
    }
    if (label === 'ENCRYPTED PRIVATE KEY') {
      return `is an encrypted PEM; give it decrypted (BEGIN PRIVATE KEY): ${convert}`;
    }
    return 'expected a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----), a private JWK or a CryptoKey';
  }
  if (isCryptoKey(privateKey)) {
    return privateKey.type === 'private'
      ? undefined
      : `is a ${privateKey.type} CryptoKey, not a private one`;
  }
  if (typeof privateKey === 'object' && privateKey !== null) {
    const jwk = privateKey as PrivateJwk;
    if (typeof jwk.kty !== 'string') return 'is a JWK without kty';
    if (jwk.d === undefined) return 'is a public JWK: a private one has "d"';
    return undefined;
  }
  return 'expected a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----), a private JWK or a CryptoKey';
}

/**
 * Makes the signer of one provider's assertions: each call signs a fresh one for `audience`.
 * The key is imported on the first call and kept.
 */
export function assertionSigner(key: SigningKey): (audience: string) => Promise<string> {
  let imported: Promise<CryptoKey | Uint8Array> | undefined;
  return async (audience) => {
    let signing: Awaited<ReturnType<typeof loadSigning>>;
    try {
      signing = await loadSigning();
    } catch (error) {
      throw new AgentChatError(
        'private_key_jwt needs the jose package, a dependency of agentchat: reinstall agentchat',
        { cause: error },
      );
    }
    const algorithm = key.algorithm ?? signing.algorithmOf(key.privateKey);
    imported ??= signing.importSigningKey(key.privateKey, algorithm);
    let signingKey: CryptoKey | Uint8Array;
    try {
      signingKey = await imported;
    } catch {
      imported = undefined;
      // The import's own error may describe the key: it stays out of what the user sees.
      throw new OAuthError({
        status: 0,
        problem: `the privateKey could not be used to sign ${algorithm}: check that it is the private key of the kind ${algorithm} names, or set algorithm to the key's own`,
      });
    }
    const header: { alg: string } & Record<string, string> = { alg: algorithm, typ: 'JWT' };
    if (key.keyId !== undefined) header.kid = key.keyId;
    if (key.certificateThumbprint !== undefined) header['x5t#S256'] = key.certificateThumbprint;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: key.clientId,
      sub: key.clientId,
      aud: audience,
      jti: crypto.randomUUID(),
      iat: now,
      exp: now + ASSERTION_LIFETIME_SECONDS,
    };
    try {
      return await signing.signJwt(header, claims, signingKey);
    } catch {
      throw new OAuthError({
        status: 0,
        problem: `the privateKey could not sign ${algorithm} in this runtime: set algorithm to one its Web Crypto has`,
      });
    }
  };
}

/**
 * Calls a `clientAssertion` callback (or another source of a token, `name`d for messages) for one
 * token request, and checks its answer: a failure or a blank answer is an OAuthError, so that no
 * token request goes out without it. A source's own OAuthError, which already says what to fix,
 * passes as it is.
 */
export async function suppliedAssertion(
  clientAssertion: () => string | Promise<string>,
  name = 'the clientAssertion callback',
): Promise<string> {
  let assertion: unknown;
  try {
    assertion = await clientAssertion();
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    throw new OAuthError({
      status: 0,
      problem: `${name} failed (${describeFailure(error)}), so no token was asked for`,
    });
  }
  if (typeof assertion !== 'string' || assertion.trim() === '') {
    throw new OAuthError({
      status: 0,
      problem: `${name} answered ${typeof assertion === 'string' ? 'a blank string' : describeType(assertion)}, not a token, so no token was asked for`,
    });
  }
  // A token read from a file ends with a line break, which is no part of it.
  return assertion.trim();
}

/**
 * The error's class name, never its message: the callback's own error may quote a token. The
 * SDK's own errors (the bin's unreadable token file) say what happened without one.
 */
function describeFailure(error: unknown): string {
  if (error instanceof AgentChatError) return error.message;
  return error instanceof Error ? error.name : describeType(error);
}

function describeType(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;
}
