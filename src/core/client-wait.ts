/**
 * One `Retry-After` per client: a 429 or 503 that names a wait holds every call of the client
 * family (a client, the clients `withOptions` makes from it, the MCP server's per-request clients)
 * until it ends, instead of each call finding the limit on its own and spending an attempt on it.
 * Here is the wait itself, which each call's options carry and each attempt's answer may extend;
 * `hold-call.ts` holds the calls. Kept small: every browser bundle carries it
 * (docs/maintainers/performance.md, the 25 KiB budget).
 */
import { serverRetryAfter } from './retry-policy.js';

/** The wait the service asked of a client family. */
export class ClientWait {
  /** When the wait ends (`Date.now()` time); in the past when none is in force. */
  until = 0;

  /**
   * Reads the wait a response asks for, when it is a 429 or a 503 that names one. Of that wait and
   * the one in force, the later end stands: a shorter hint never shortens a wait.
   */
  note(response: Response): void {
    const { status } = response;
    if (status !== 429 && status !== 503) return;
    const now = Date.now();
    const wait = serverRetryAfter(response.headers, now);
    if (wait !== undefined && now + wait > this.until) this.until = now + wait;
  }
}
