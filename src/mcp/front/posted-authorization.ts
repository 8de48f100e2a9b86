/**
 * An authorization request posted as a form (OpenID Connect Core section 3.1.2.1 allows POST
 * beside the GET that RFC 6749 section 3.1 requires). oidc-provider serves POST at its
 * authorization endpoint only with its session cookie made `SameSite=None`, which browsers drop on
 * an http issuer and which would send the person's session along with every cross-site request.
 * The front answers such a POST with a 303 to the same request as a GET instead: the browser
 * follows it as a top-level navigation (its `SameSite=Lax` cookies go along), and the engine
 * reads and checks the parameters once, as for any GET, the default scope included.
 */
import { readRequestBody } from '@modelcontextprotocol/server';
import { errorPage, PAGE_HEADERS } from './consent-page.js';

/**
 * The largest form taken, in bytes: it becomes a URL, which browsers and Node's header limit
 * (16 KiB) must still take. A real authorization request is a few hundred bytes.
 */
export const MAX_POSTED_AUTHORIZATION_BYTES = 8192;

/**
 * The answer to a POST of an authorization request to `endpoint` (the authorization endpoint's
 * URL under the issuer): a 303 to `endpoint` with the form as its query, or an error page when
 * the body is not a form or is too large.
 *
 * @example
 * ```ts
 * if (request.method === 'POST') return postedAuthorization(request, new URL('/authorize', issuer));
 * ```
 */
export async function postedAuthorization(request: Request, endpoint: URL): Promise<Response> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return refused(
      415,
      'An authorization request is sent as a link, or as a form (application/x-www-form-urlencoded).',
    );
  }
  const read = await readRequestBody(request, MAX_POSTED_AUTHORIZATION_BYTES);
  if (read.tooLarge) {
    return refused(
      413,
      `The authorization request is larger than ${MAX_POSTED_AUTHORIZATION_BYTES} bytes.`,
    );
  }
  const target = new URL(endpoint);
  // Every pair as sent, repeated ones included: the engine refuses those as it does in a query.
  target.search = new URLSearchParams(read.text).toString();
  return new Response(null, {
    status: 303,
    headers: {
      location: target.href,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  });
}

function refused(status: number, description: string): Response {
  return new Response(errorPage('The sign-in was refused', description, 'invalid_request'), {
    status,
    headers: PAGE_HEADERS,
  });
}
