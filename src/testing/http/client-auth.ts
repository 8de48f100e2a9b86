/**
 * How a token request authenticated its client (RFC 6749 section 2.3.1), read by the RFC's
 * rules rather than by any client's code, so a client that encodes credentials wrongly fails here
 * as it would against a real authorization server.
 */
export type ClientAuthentication =
  | {
      kind: 'credentials';
      /** `basic`: HTTP Basic in `Authorization` (client_secret_basic); `body`: form fields (client_secret_post). */
      method: 'basic' | 'body';
      clientId: string;
      /** Empty when the body named a client without a secret. */
      clientSecret: string;
    }
  | { kind: 'none' }
  /** Both HTTP Basic and form fields: the RFC allows one method per request. */
  | { kind: 'several-methods' }
  /** An `Authorization` header the token endpoint cannot read: another scheme, or broken Basic. */
  | { kind: 'unreadable'; basic: boolean; reason: string };

/**
 * Reads the client credentials of a token request from its `Authorization` header and its form.
 *
 * HTTP Basic, as section 2.3.1 specifies: the client id and secret are each form-urlencoded,
 * joined by `:` and Base64-encoded. So the header is Base64-decoded, split at the first `:`, and
 * each part form-urldecoded (`+` is a space, `%3A` a colon).
 *
 * @example
 * ```ts
 * // btoa('my%20client:p%40ss') for the id "my client" and the secret "p@ss"
 * readClientAuthentication('Basic bXklMjBjbGllbnQ6cCU0MHNz', new URLSearchParams());
 * // { kind: 'credentials', method: 'basic', clientId: 'my client', clientSecret: 'p@ss' }
 * ```
 */
export function readClientAuthentication(
  authorization: string | null,
  form: URLSearchParams,
): ClientAuthentication {
  // A field sent without a value counts as omitted (RFC 6749 section 3.2).
  const bodyId = form.get('client_id') || undefined;
  const bodySecret = form.get('client_secret') || undefined;
  const inBody = bodyId !== undefined || bodySecret !== undefined;

  if (authorization !== null && authorization.trim() !== '') {
    if (inBody) return { kind: 'several-methods' };
    return readBasic(authorization);
  }
  if (!inBody) return { kind: 'none' };
  return {
    kind: 'credentials',
    method: 'body',
    clientId: bodyId ?? '',
    clientSecret: bodySecret ?? '',
  };
}

function readBasic(authorization: string): ClientAuthentication {
  if (!/^basic(?: |$)/i.test(authorization)) {
    return {
      kind: 'unreadable',
      basic: false,
      reason:
        'The token endpoint authenticates clients by HTTP Basic or client_id and client_secret',
    };
  }
  const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(authorization);
  const decoded = match?.[1] === undefined ? undefined : decodeBase64Text(match[1]);
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded === undefined || colon < 0) {
    return {
      kind: 'unreadable',
      basic: true,
      reason: 'Malformed HTTP Basic credentials: expected Base64 of "<client_id>:<client_secret>"',
    };
  }
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  if (clientId === undefined || clientSecret === undefined) {
    return {
      kind: 'unreadable',
      basic: true,
      reason:
        'Malformed HTTP Basic credentials: the client id and secret must each be form-urlencoded (RFC 6749 section 2.3.1)',
    };
  }
  return { kind: 'credentials', method: 'basic', clientId, clientSecret };
}

/** Base64 to UTF-8 text; `undefined` when it is not Base64 of UTF-8. */
function decodeBase64Text(base64: string): string | undefined {
  if (base64.length % 4 !== 0) return undefined;
  try {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** application/x-www-form-urlencoded decoding of one value; `undefined` for a broken escape. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
