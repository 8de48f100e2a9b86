/**
 * Where an Idempotency-Key applies. Keys are scoped by method and path as well, so the same key
 * on create and on chat are two keys.
 */
export interface IdempotencyScope {
  key: string;
  method: string;
  path: string;
}

/** A request carrying an Idempotency-Key, with what identifies its body. */
export interface KeyedRequest extends IdempotencyScope {
  /** Equal for equal bodies; see `bodyFingerprint`. */
  fingerprint: string;
}

/**
 * What an Idempotency-Key says about a request whose key is not in flight, following the IETF
 * draft "The Idempotency-Key HTTP Header Field".
 */
export type IdempotencyVerdict =
  | { kind: 'new' }
  | { kind: 'replay'; response: Response }
  | { kind: 'different-body' };

/** A request's hold on its key while it is processed, from arrival to answer. */
export interface IdempotencyClaim {
  /** The key, method and path the claim is for. */
  readonly scope: IdempotencyScope;
  /** Another request with this key was still being processed when this one arrived. */
  readonly busy: boolean;
  /** Ends the hold; called once the request is answered, dropped or abandoned. */
  release(): void;
}

/** The first successful answer to an Idempotency-Key, with the body it answered. */
interface CompletedRequest {
  fingerprint: string;
  response: Response;
}

/**
 * The mock's memory of Idempotency-Keys: which are being processed now, and the first successful
 * answer of each completed one.
 *
 * @example
 * ```ts
 * const records = createIdempotencyRecords();
 * const claim = records.claim(request); // on arrival
 * records.check(request);               // { kind: 'new' }
 * records.save(request, response);
 * claim.release();
 * records.check(request);               // { kind: 'replay', response }
 * ```
 */
export function createIdempotencyRecords() {
  const completed = new Map<string, CompletedRequest>();
  // The claim holding each key, so a release from before reset() cannot free a newer claim.
  const inFlight = new Map<string, IdempotencyClaim>();
  const scopeOf = ({ key, method, path }: IdempotencyScope) => JSON.stringify([key, method, path]);

  return {
    /** Takes the key for a request that just arrived, or reports it busy. */
    claim(request: IdempotencyScope): IdempotencyClaim {
      const id = scopeOf(request);
      const scope = { key: request.key, method: request.method, path: request.path };
      if (inFlight.has(id)) return { scope, busy: true, release: () => {} };
      const claim: IdempotencyClaim = {
        scope,
        busy: false,
        release: () => {
          if (inFlight.get(id) === claim) inFlight.delete(id);
        },
      };
      inFlight.set(id, claim);
      return claim;
    },
    check(request: KeyedRequest): IdempotencyVerdict {
      const record = completed.get(scopeOf(request));
      if (!record) return { kind: 'new' };
      if (record.fingerprint !== request.fingerprint) return { kind: 'different-body' };
      return { kind: 'replay', response: replayOf(record.response) };
    },
    /** Keeps a clone: the original goes to the client, whose reading would drain it. */
    save(request: KeyedRequest, response: Response): void {
      completed.set(scopeOf(request), {
        fingerprint: request.fingerprint,
        response: response.clone(),
      });
    },
    clear(): void {
      completed.clear();
      inFlight.clear();
    },
  };
}

/** A fresh copy of the recorded answer, marked as a replay. */
function replayOf(recorded: Response): Response {
  const headers = new Headers(recorded.headers);
  headers.set('idempotent-replayed', 'true');
  return new Response(recorded.clone().body, { status: recorded.status, headers });
}
