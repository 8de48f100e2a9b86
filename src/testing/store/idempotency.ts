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

/** A request carrying an Idempotency-Key. Records are scoped by key, method and path. */
export interface KeyedRequest {
  key: string;
  method: string;
  path: string;
  /** Equal for equal bodies; see `bodyFingerprint`. */
  fingerprint: string;
}

/**
 * The mock's memory of Idempotency-Keys.
 *
 * @example
 * ```ts
 * const records = createIdempotencyRecords();
 * records.save(request, response);
 * records.check(request); // { kind: 'replay', response }
 * ```
 */
export function createIdempotencyRecords() {
  const records = new Map<string, IdempotencyRecord>();
  const scopeOf = ({ key, method, path }: KeyedRequest) => JSON.stringify([key, method, path]);

  return {
    check(request: KeyedRequest): IdempotencyVerdict {
      const record = records.get(scopeOf(request));
      if (!record) return { kind: 'new' };
      if (record.fingerprint !== request.fingerprint) return { kind: 'conflict' };
      return { kind: 'replay', response: replayOf(record.response) };
    },
    /** Keeps a clone: the original goes to the client, whose reading would drain it. */
    save(request: KeyedRequest, response: Response): void {
      records.set(scopeOf(request), {
        fingerprint: request.fingerprint,
        response: response.clone(),
      });
    },
    clear: () => records.clear(),
  };
}

/** A fresh copy of the recorded answer, marked as a replay. */
function replayOf(recorded: Response): Response {
  const headers = new Headers(recorded.headers);
  headers.set('idempotent-replayed', 'true');
  return new Response(recorded.clone().body, { status: recorded.status, headers });
}
