import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { errorResponse } from './service-error.js';

/** Headers every cross-origin answer lets the page read, whether or not this one carries them. */
const ALWAYS_EXPOSED = ['x-request-id', 'retry-after', 'retry-after-ms'];

/**
 * Response headers a page reads without being told (the Fetch standard's CORS-safelisted
 * response header names), and the CORS headers themselves: never worth listing as exposed.
 */
const READABLE_ANYWAY = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
  'vary',
]);

/** What the service's requests send beyond the CORS-safelisted headers, for a preflight that asks for none. */
const DEFAULT_ALLOWED_HEADERS =
  'authorization, content-type, idempotency-key, accept, x-agentchat-retry-count';

/** Methods the service answers; OPTIONS needs no permission. */
const ALLOWED_METHODS = 'GET, POST';

/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * The mock's CORS rules, so a page on another origin (a dev server on :5173) can call the mock
 * HTTP server, or a mock the service worker serves under another origin.
 */
export interface CorsPolicy {
  /** Whether the request is a CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method`. */
  isPreflight(request: Request): boolean;
  /**
   * The answer to a preflight: 204 with the origin, methods and headers allowed, or 403 with the
   * standard error body when the origin is not allowed.
   */
  preflight(request: Request, requestId: string): Response;
  /** Adds the CORS headers to an answer for a request from an allowed origin. */
  decorate(request: Request, response: Response): void;
}

/**
 * Creates the CORS rules for a list of allowed origins, or for any origin when there is none.
 * `onRefused` hears of each request from an origin not allowed, which a browser then blocks
 * with no more than "Failed to fetch" for the page to read. `optionName` is the list's name in
 * messages: the option the user gave it under.
 *
 * @throws ConfigurationError when an entry is not an origin such as `http://localhost:5173`.
 * @example
 * ```ts
 * const cors = createCorsPolicy(['http://localhost:5173']);
 * if (cors.isPreflight(request)) return cors.preflight(request, requestId);
 * ```
 */
export function createCorsPolicy(
  origins?: readonly string[],
  onRefused: (origin: string) => void = () => {},
  optionName = 'allowedOrigins',
): CorsPolicy {
  const allowed = origins
    ? new Set(origins.map((origin) => assertOrigin(origin, optionName)))
    : undefined;
  const isAllowed = (origin: string) => {
    if (!allowed || allowed.has(origin)) return true;
    onRefused(origin);
    return false;
  };

  return {
    isPreflight: (request) =>
      request.method === 'OPTIONS' &&
      request.headers.has('origin') &&
      request.headers.has('access-control-request-method'),

    preflight(request, requestId) {
      const origin = request.headers.get('origin') ?? '';
      if (!isAllowed(origin)) {
        const list = [...(allowed ?? [])].join(', ') || 'none';
        return errorResponse(403, requestId, {
          message: `Origin ${origin} is not allowed; the mock allows ${list}`,
        });
      }
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': ALLOWED_METHODS,
          // Whatever the page asks for: the mock has no header it would refuse.
          'access-control-allow-headers':
            request.headers.get('access-control-request-headers') || DEFAULT_ALLOWED_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS,
          vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        },
      });
    },

    decorate(request, response) {
      const origin = request.headers.get('origin');
      // The answer depends on Origin whenever origins are reflected, asked for or not.
      response.headers.append('vary', 'Origin');
      if (origin === null || !isAllowed(origin)) return;
      response.headers.set('access-control-allow-origin', origin);
      response.headers.set('access-control-expose-headers', exposedHeaders(response).join(', '));
    },
  };
}

/** The always-exposed headers, and every other header of this answer a page could not read. */
function exposedHeaders(response: Response): string[] {
  const names = new Set(ALWAYS_EXPOSED);
  for (const name of response.headers.keys()) {
    if (!READABLE_ANYWAY.has(name) && !name.startsWith('access-control-')) names.add(name);
  }
  return [...names];
}

function assertOrigin(origin: string, optionName: string): string {
  if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
    throw new ConfigurationError(
      `${optionName} entries must be origins such as "http://localhost:5173", got ${JSON.stringify(origin)}`,
    );
  }
  return origin;
}
