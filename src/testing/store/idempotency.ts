/**
 * Where an Idempotency-Key applies. Keys are scoped by caller, method and path as well: two
 * callers' keys never meet, and the same key on create and on chat are two keys.
 */
export interface IdempotencyScope {
  /** Who sent it: an API key, or the OAuth client behind an access token (see `callerOf`). */
  caller: string;
  key: string;
  method: string;
  path: string;
}

/** A request carrying an Idempotency-Key, with what identifies its body. */
export interface KeyedRequest extends IdempotencyScope {
  /** Equal for equal bodies, a digest of fixed size; see `bodyFingerprint`. */
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
  /** The caller, key, method and path the claim is for. */
  readonly scope: IdempotencyScope;
  /** Another request with this key was still being processed when this one arrived. */
  readonly busy: boolean;
  /** Ends the hold; called once the request is answered, dropped or abandoned. */
  release(): void;
}

/**
 * How much the mock remembers of completed Idempotency-Keys: the latest 10,000 keys, and 16 MiB
 * of their answers' bodies; the oldest are forgotten first. A service keeps keys for a day, not
 * for ever; the SDK sends a fresh key with every POST, and the built-in agent repeats each chat
 * message in its answer, so a mock serving for hours would otherwise grow with every POST.
 */
export const IDEMPOTENCY_LIMITS = { keys: 10_000, bytes: 16_777_216 } as const;

/** The first successful answer to an Idempotency-Key, with the body it answered. */
interface CompletedRequest {
  fingerprint: string;
  status: number;
  headers: [string, string][];
  body: Uint8Array;
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
 * await records.save(request, response);
 * claim.release();
 * records.check(request);               // { kind: 'replay', response }
 * ```
 */
export function createIdempotencyRecords() {
  const completed = new Map<string, CompletedRequest>();
  // The claim holding each key, so a release from before reset() cannot free a newer claim.
  const inFlight = new Map<string, IdempotencyClaim>();
  const scopeOf = ({ caller, key, method, path }: IdempotencyScope) =>
    JSON.stringify([caller, key, method, path]);
  // The size of the bodies kept, against IDEMPOTENCY_LIMITS.bytes.
  let bytes = 0;
  const forget = (id: string) => {
    bytes -= completed.get(id)?.body.byteLength ?? 0;
    completed.delete(id);
  };

  return {
    /** Takes the key for a request that just arrived, or reports it busy. */
    claim(request: IdempotencyScope): IdempotencyClaim {
      const id = scopeOf(request);
      const { caller, key, method, path } = request;
      const scope = { caller, key, method, path };
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
      return { kind: 'replay', response: replayOf(record) };
    },
    /**
     * Keeps the answer's status, headers and body, read from a clone: the original goes to the
     * client, whose reading would drain it. Within {@link IDEMPOTENCY_LIMITS}, the oldest keys
     * forgotten first; an answer larger than all of it is not kept (a repeat gets a fresh one).
     */
    async save(request: KeyedRequest, response: Response): Promise<void> {
      const body = new Uint8Array(await response.clone().arrayBuffer());
      if (body.byteLength > IDEMPOTENCY_LIMITS.bytes) return;
      const id = scopeOf(request);
      forget(id);
      completed.set(id, {
        fingerprint: request.fingerprint,
        status: response.status,
        headers: [...response.headers],
        body,
      });
      bytes += body.byteLength;
      for (const oldest of completed.keys()) {
        if (completed.size <= IDEMPOTENCY_LIMITS.keys && bytes <= IDEMPOTENCY_LIMITS.bytes) break;
        forget(oldest);
      }
    },
    clear(): void {
      completed.clear();
      bytes = 0;
      inFlight.clear();
    },
  };
}

/** A fresh copy of the recorded answer, marked as a replay. */
function replayOf({ status, headers, body }: CompletedRequest): Response {
  const replayed = new Headers(headers);
  replayed.set('idempotent-replayed', 'true');
  return new Response(body.slice(), { status, headers: replayed });
}
