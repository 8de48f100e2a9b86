/** The first successful answer to an Idempotency-Key, with the body it answered. */
interface IdempotencyRecord {
  fingerprint: string;
  response: Response;
}

/** What an Idempotency-Key says about a request. */
export type IdempotencyVerdict =
  | { kind: 'new' }
  | { kind: 'replay'; response: Response }
  | { kind: 'conflict' };

/**
 * The mock's memory of Idempotency-Keys, scoped by key, method and path.
 *
 * @example
 * ```ts
 * const records = createIdempotencyRecords();
 * records.save(scope, fingerprint, response);
 * records.check(scope, fingerprint); // { kind: 'replay', response }
 * ```
 */
export function createIdempotencyRecords() {
  const records = new Map<string, IdempotencyRecord>();
  const keyOf = (scope: IdempotencyScope) => JSON.stringify([scope.key, scope.method, scope.path]);

  return {
    check(scope: IdempotencyScope, fingerprint: string): IdempotencyVerdict {
      const record = records.get(keyOf(scope));
      if (!record) return { kind: 'new' };
      if (record.fingerprint !== fingerprint) return { kind: 'conflict' };
      return { kind: 'replay', response: replayOf(record.response) };
    },
    /** Keeps a clone: the original goes to the client, whose reading would drain it. */
    save(scope: IdempotencyScope, fingerprint: string, response: Response): void {
      records.set(keyOf(scope), { fingerprint, response: response.clone() });
    },
    clear: () => records.clear(),
  };
}

/** Which request an Idempotency-Key belongs to. */
export interface IdempotencyScope {
  key: string;
  method: string;
  path: string;
}

/** A fresh copy of the recorded answer, marked as a replay. */
function replayOf(recorded: Response): Response {
  const headers = new Headers(recorded.headers);
  headers.set('idempotent-replayed', 'true');
  return new Response(recorded.clone().body, { status: recorded.status, headers });
}
