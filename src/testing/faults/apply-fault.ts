import type { Exchange } from '../http/exchange.js';
import { untilAborted, wait } from '../http/wait.js';
import type { FaultAnswer } from './fault.js';
import { faultResponse } from './fault-response.js';

/**
 * Answers a fault, or after its delay (and `latencyMs`) the normal answer: the same for queued
 * faults and those an override answers. A dropped connection is `Response.error()`, as is a
 * request abandoned while it waits.
 *
 * @example
 * ```ts
 * await applyFault({ kind: 'delay', ms: 50 }, exchange, 0, () => answer(exchange));
 * ```
 */
export async function applyFault(
  fault: FaultAnswer | undefined,
  { requestId, signal }: Pick<Exchange, 'requestId' | 'signal'>,
  latencyMs: number,
  normal: () => Response | Promise<Response>,
): Promise<Response> {
  if (fault?.kind === 'hang') {
    await untilAborted(signal);
    return Response.error();
  }
  const delayMs = latencyMs + (fault?.kind === 'delay' ? fault.ms : 0);
  if (!(await wait(delayMs, signal))) return Response.error();
  if (fault?.kind === 'network-error') return Response.error();
  return fault && fault.kind !== 'delay' ? faultResponse(fault, requestId) : normal();
}
