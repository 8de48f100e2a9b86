/**
 * The one way the engine fetches a document (oidc-provider's `fetch`; today only Client ID
 * Metadata Documents, as registration refuses every other URL a client could name): over
 * node:http(s) with a connection of its own, no proxy, no redirect followed, and every address
 * checked where the socket gets it (`lookup`), DNS answers included, so that a name resolving to a
 * special-use address is refused before any connection is made. oidc-provider's own check runs
 * after connecting; this one never connects.
 *
 * Only a globally reachable unicast address is connected to (ipaddr.js's range table: private,
 * loopback, link-local, shared, unique-local, documentation, benchmarking, multicast, reserved,
 * `0.0.0.0`, and the IPv4-mapped, -compatible, 6to4, Teredo and NAT64 forms of IPv6 are not); a
 * URL naming this machine (`localhost`, `127.0.0.1`, `[::1]`) may reach a loopback address, the
 * one documented exception, for hosts and tests on it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isLoopback } from '../../internal/platform.js';

/** The error a refused address fails the fetch with (the engine answers `invalid_client`). */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
}

/**
 * IPv6 ranges ipaddr.js's table calls unicast that are not: the IPv4-compatible form (`::/96`,
 * deprecated by RFC 4291; `[::7f00:1]` is 127.0.0.1 in it) and RFC 9780's documentation prefix.
 */
const NOT_GLOBAL_IPV6 = ['::/96', '100:0:0:1::/64'].map((range) => ipaddr.IPv6.parseCIDR(range));

/** Whether `address` (an IP address) may be connected to, given whether the URL names this machine. */
export function mayConnectTo(address: string, namesThisMachine: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (namesThisMachine && range === 'loopback') return true;
  if (range !== 'unicast') return false;
  return !(
    parsed.kind() === 'ipv6' && NOT_GLOBAL_IPV6.some((cidr) => (parsed as ipaddr.IPv6).match(cidr))
  );
}

/** What one fetch got: kept per request, so that a second look-up in it fetches nothing. */
interface Fetched {
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: Buffer;
}

/** The documents each request to the engine has fetched, by URL (see {@link withFetchMemo}). */
const memo = new AsyncLocalStorage<Map<string, Promise<Fetched>>>();

/**
 * Runs `handle` (one request to the engine) with its own memo of documents: the engine may look a
 * client up twice in one request (a failed document is not cached), and a second look-up gets the
 * first's outcome, so that a slow document costs one bound, not two.
 */
export function withFetchMemo<T>(handle: () => T): T {
  return memo.run(new Map(), handle);
}

/**
 * oidc-provider's `fetch`, reading at most `maxBytes + 1` of a body (the engine refuses past
 * `maxBytes`), within `init.signal`.
 *
 * @example
 * ```ts
 * const configuration = { fetch: documentFetch(65_536) };
 * ```
 */
export function documentFetch(
  maxBytes: number,
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const key = String(url);
    const documents = memo.getStore();
    let fetched = documents?.get(key);
    if (fetched === undefined) {
      fetched = fetchOnce(new URL(key), init, maxBytes);
      documents?.set(key, fetched);
    }
    const { status, headers, body } = await fetched;
    return new Response(status === 204 || status === 304 ? null : new Uint8Array(body), {
      status,
      headers,
    });
  };
}

function fetchOnce(url: URL, init: RequestInit, maxBytes: number): Promise<Fetched> {
  const thisMachine = isLoopback(url.hostname);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address in the URL is connected to without a look-up: checked here.
  if (isIP(host) !== 0 && !mayConnectTo(host, thisMachine)) {
    return Promise.reject(new RefusedAddressError(`${host} is a special-use address`));
  }
  const request =
    url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
  if (request === undefined) {
    return Promise.reject(new RefusedAddressError(`${url.protocol} is not fetched`));
  }
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  return new Promise<Fetched>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: init.method ?? 'GET',
        headers,
        // A connection of its own: no pool, no proxy from the environment.
        agent: false,
        lookup: checkedLookup(thisMachine),
        ...(init.signal && { signal: init.signal }),
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          resolve({
            status: response.statusCode ?? 502,
            headers: headerPairs(response),
            body: Buffer.concat(chunks),
          });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough for the engine to see it is too large: the rest is never read.
          if (size > maxBytes) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', reject);
        // Closed before its end (and not by the bound above): no document.
        response.on('close', () =>
          reject(new Error('the connection closed before the document ended')),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** `dns.lookup`, refusing the whole answer when any address in it may not be connected to. */
function checkedLookup(thisMachine: boolean) {
  return (
    hostname: string,
    options: { all?: boolean | undefined; family?: number | string | undefined },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true } as never, (error, found) => {
      if (error) return callback(error, []);
      const addresses = found as unknown as LookupAddress[];
      const refused = addresses.find(({ address }) => !mayConnectTo(address, thisMachine));
      if (refused !== undefined || addresses.length === 0) {
        return callback(
          new RefusedAddressError(
            `${hostname} resolves to ${refused?.address ?? 'nothing'}, a special-use address`,
          ),
          [],
        );
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

function headerPairs(response: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) {
    pairs.push([response.rawHeaders[i] as string, response.rawHeaders[i + 1] as string]);
  }
  return pairs;
}
