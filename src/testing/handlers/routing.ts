import { matchPathPattern } from '../http/path-pattern.js';
import { sendChat } from './chat/send.js';
import type { Endpoint } from './endpoint.js';
import { issueToken } from './oauth/token.js';
import { createProject } from './projects/create.js';
import { getProject } from './projects/get.js';

/** Every endpoint the mock serves. */
export const endpoints: readonly Endpoint[] = [createProject, getProject, sendChat, issueToken];

/** Where a request lands: an endpoint, a known path with the wrong method, or nowhere. */
export type EndpointMatch =
  | { kind: 'endpoint'; endpoint: Endpoint; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'unknown' };

/**
 * Finds the endpoint for a method and a path below the base URL (still percent-encoded).
 *
 * @example
 * ```ts
 * findEndpoint('GET', '/v1/projects/proj_1'); // { kind: 'endpoint', endpoint: getProject, params: { id: 'proj_1' } }
 * findEndpoint('DELETE', '/v1/projects/proj_1'); // { kind: 'wrong-method', allow: ['GET'] }
 * ```
 */
export function findEndpoint(method: string, path: string): EndpointMatch {
  const allow: string[] = [];
  for (const endpoint of endpoints) {
    const params = matchPathPattern(endpoint.path, path);
    if (!params) continue;
    if (endpoint.method === method) return { kind: 'endpoint', endpoint, params };
    allow.push(endpoint.method);
  }
  return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'unknown' };
}
