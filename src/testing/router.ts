import { sendChat } from './handlers/chat/send.js';
import { createProject } from './handlers/projects/create.js';
import { getProject } from './handlers/projects/get.js';
import type { Route } from './route.js';

/** Every endpoint the mock serves. */
export const routes: readonly Route[] = [createProject, getProject, sendChat];

/** Where a request lands: a route, a known path with the wrong method, or nowhere. */
export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'unknown' };

/**
 * Finds the route for a method and a path below the base URL (still percent-encoded).
 *
 * @example
 * ```ts
 * matchRoute('GET', '/v1/projects/proj_1'); // { kind: 'route', route: getProject, params: { id: 'proj_1' } }
 * matchRoute('DELETE', '/v1/projects/proj_1'); // { kind: 'wrong-method', allow: ['GET'] }
 * ```
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const allow: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method) return { kind: 'route', route, params };
    allow.push(route.method);
  }
  return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'unknown' };
}

/**
 * Matches segment by segment. A parameter takes exactly one non-empty segment, decoded once here
 * so that an id holding `%2F` stays one id rather than becoming two segments.
 */
function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const expected = pattern.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return undefined;

  const params: Record<string, string> = {};
  for (const [index, part] of expected.entries()) {
    const segment = actual[index] ?? '';
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params[part.slice(1)] = decodeSegment(segment);
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

/** A malformed escape such as `%E0%A4` is kept as written: no project has that id, so it is a 404. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
