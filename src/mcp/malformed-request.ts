/**
 * The guard in front of `agentchat-mcp --http`'s node-to-fetch conversion: a request that cannot
 * become a fetch `Request` (a Host that is no host, a request target that is not a path, a method
 * fetch forbids) is the client's mistake, answered 400 here; an absolute-form target, which RFC 9112
 * asks a server to accept, is put in origin form first. Left to the conversion it would be a
 * 500 and a log line per request: anyone reaching the port could write to the server's log at will.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { splitAbsoluteForm } from '../internal/request-target.js';

/** The longest Host taken: a DNS name has at most 253 characters, then `:` and a port. */
const MAX_HOST_LENGTH = 259;

/**
 * `host[:port]` as RFC 9110 section 7.2 has it: a bracketed IPv6 literal, or a registered name
 * or IPv4 address of unreserved and sub-delim characters, then an optional port (maybe empty).
 */
const hostHeader = /^(?:\[[0-9A-Fa-f:.]+\]|[\w.~!$&'()*+,;=%-]+)(?::(\d{0,5}))?$/;

/** Methods a fetch `Request` refuses to carry. */
const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** How often, at most, the count of refused requests is written to the log, in ms. */
const REPORT_INTERVAL_MS = 60_000;

/**
 * Rewrites an absolute-form request target (`POST http://host/mcp HTTP/1.1`) to origin form,
 * `/mcp`, with the target's authority as the Host, as RFC 9112 section 3.2.2 asks of an origin
 * server (see src/internal/request-target.ts). Any other target is left as it is.
 *
 * @example
 * ```ts
 * const request = { url: 'http://127.0.0.1:8787/mcp?x=1', headers: { host: 'proxy' } };
 * toOriginForm(request);
 * // request.url is '/mcp?x=1', request.headers.host '127.0.0.1:8787'
 * ```
 */
export function toOriginForm(request: Pick<IncomingMessage, 'url' | 'headers'>): void {
  const absolute = splitAbsoluteForm(request.url ?? '');
  if (absolute === undefined) return;
  request.url = absolute.path;
  request.headers.host = absolute.authority;
}

/**
 * What is wrong with a request before it is converted, or `undefined` when nothing is. An
 * absolute-form target is to be put in origin form first ({@link toOriginForm}).
 *
 * @example
 * ```ts
 * malformedRequestProblem({ method: 'POST', url: '/mcp', headers: { host: 'a b' } });
 * // 'a malformed Host header'
 * ```
 */
export function malformedRequestProblem(
  request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
): string | undefined {
  const { host } = request.headers;
  if (host !== undefined && !isHost(host)) return 'a malformed Host header';
  if (!request.url?.startsWith('/')) return 'a request target that is not a path';
  if (forbiddenMethods.has(request.method?.toUpperCase() ?? '')) return 'a method fetch forbids';
  return undefined;
}

function isHost(host: string): boolean {
  if (host.length > MAX_HOST_LENGTH) return false;
  const match = hostHeader.exec(host);
  if (!match) return false;
  const port = match[1];
  return (port === undefined || Number(port) <= 65_535) && URL.canParse(`http://${host}/`);
}

/**
 * Makes the guard: it answers a malformed request 400 and reports `true`, else reports `false`
 * and leaves the request alone, but for an absolute-form target, which it puts in origin form. Refusals are counted, and the count written through `log` at
 * most once a minute (the first refusal at once), never a line per request.
 *
 * @example
 * ```ts
 * const refuseMalformed = malformedRequestGuard((line) => process.stderr.write(line));
 * createServer((req, res) => refuseMalformed(req, res) || serve(req, res));
 * ```
 */
export function malformedRequestGuard(
  log: (line: string) => void,
  now: () => number = Date.now,
): (request: IncomingMessage, response: ServerResponse) => boolean {
  let unreported = 0;
  let reportedAt = -Infinity;
  return (request, response) => {
    toOriginForm(request);
    const problem = malformedRequestProblem(request);
    if (problem === undefined) return false;
    unreported++;
    if (now() - reportedAt >= REPORT_INTERVAL_MS) {
      log(
        `agentchat-mcp: refused ${unreported} malformed request${unreported === 1 ? '' : 's'} (such as one with ${problem}) with 400; at most one such line a minute\n`,
      );
      reportedAt = now();
      unreported = 0;
    }
    const body = JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32600, message: `Bad Request: ${problem}` },
      id: null,
    });
    // Closed after the answer: a client sending these is not one to keep a connection for.
    response.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
    response.end(body);
    return true;
  };
}
