/**
 * A request target in absolute form (`http://host/mcp`, RFC 9112 section 3.2.2), as a client
 * speaking through a proxy sends it. The section asks an origin server to accept that form and
 * to take the host from the target rather than from the Host header. Node hands it over as it
 * came, and both of our servers' conversions to a fetch `Request` join a base and the target, so
 * each puts such a target in origin form (`/mcp`) first.
 */

/** `http(s)://`, an authority without user info, then an optional path and query, no fragment. */
const absoluteForm = /^https?:\/\/([^/?#@]+)([/?][^#]*)?$/i;

/**
 * The authority and the origin-form target (`/` at least) of an absolute-form target, or
 * `undefined` for any other target, which is left to the server's own checks.
 *
 * @example
 * ```ts
 * splitAbsoluteForm('http://127.0.0.1:8787/mcp?x=1');
 * // { authority: '127.0.0.1:8787', path: '/mcp?x=1' }
 * ```
 */
export function splitAbsoluteForm(
  target: string,
): { readonly authority: string; readonly path: string } | undefined {
  const match = absoluteForm.exec(target);
  if (match === null) return undefined;
  const [, authority = '', rest = ''] = match;
  return { authority, path: rest.startsWith('/') ? rest : `/${rest}` };
}
