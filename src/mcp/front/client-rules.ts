/**
 * What the front accepts of a client's metadata, at registration and in a Client ID Metadata
 * Document alike (oidc-provider's `extraClientMetadata` validator runs on both): nothing that
 * would make the front fetch a URL the client chose, and only redirect URIs a person's access may
 * safely be sent to.
 */
import { isLoopback } from '../../internal/platform.js';

/**
 * Metadata naming a URL the engine would fetch later (a key set, a sector identifier, request
 * objects): the front fetches only what it chose, so a client gives its keys inline (`jwks`).
 */
export const REFUSED_CLIENT_METADATA = [
  'jwks_uri',
  'sector_identifier_uri',
  'request_uris',
] as const;

/**
 * Schemes that run or read something where the browser lands, never a place to send a code to;
 * a native app's private-use scheme (`com.example.app:`, `cursor:`) is any other.
 */
const SCRIPT_SCHEMES = new Set([
  'javascript:',
  'vbscript:',
  'data:',
  'file:',
  'blob:',
  'filesystem:',
  'about:',
  'view-source:',
  'jar:',
  'ws:',
  'wss:',
  'ftp:',
  'mailto:',
  'tel:',
  'sms:',
]);

/**
 * Why `uri` may not be a redirect URI, or `undefined` when it may: `https`, `http` on a loopback
 * host only, or a native app's private-use scheme; never userinfo, a fragment or a script scheme.
 *
 * @example
 * ```ts
 * redirectUriProblem('http://evil.example/cb'); // 'http is for loopback hosts only ...'
 * ```
 */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return 'a redirect URI is a string';
  // Raw checks first: URL parsing drops an empty fragment and may hide a userinfo's `@`.
  if (uri.includes('#')) return `${JSON.stringify(uri)} has a fragment`;
  const url = URL.parse(uri);
  if (url === null) return `${JSON.stringify(uri)} is not a URL`;
  if (url.username !== '' || url.password !== '') {
    return `${JSON.stringify(uri)} has userinfo (a name before @)`;
  }
  const scheme = url.protocol.toLowerCase();
  if (scheme === 'https:')
    return url.hostname === '' ? `${JSON.stringify(uri)} has no host` : undefined;
  if (scheme === 'http:') {
    return isLoopback(url.hostname)
      ? undefined
      : `${JSON.stringify(uri)}: http is for loopback hosts only (localhost, 127.0.0.1, [::1]); use https`;
  }
  if (SCRIPT_SCHEMES.has(scheme)) return `${JSON.stringify(uri)} uses the ${scheme} scheme`;
  return undefined;
}
