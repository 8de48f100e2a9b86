/**
 * Who is calling the front, for the limits counted per caller: the address of the socket the
 * request came on (told by the node:http listener, which alone sees it), or, when that socket is
 * a configured trusted proxy, the address that proxy names in `X-Forwarded-For` (the nearest hop
 * not itself trusted, read from the right, as proxy-addr does). A header from anyone else is
 * ignored: a caller could write any address there.
 */
import ipaddr from 'ipaddr.js';
import { ConfigurationError } from '../../index.js';
import { socketAddressOf } from './socket-address.js';

/** Address ranges parsed once: the trusted proxies. */
export type TrustedProxies = readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];

/**
 * `trustedProxies` (addresses or CIDR ranges) parsed.
 *
 * @throws {@link ConfigurationError} naming an entry that is neither.
 */
export function trustedProxiesOf(values: unknown): TrustedProxies {
  if (values === undefined) return [];
  if (!Array.isArray(values)) {
    throw new ConfigurationError(
      'trustedProxies (--trusted-proxy) must be a list of addresses or CIDR ranges, such as ["10.0.0.0/8"].',
    );
  }
  return values.map((value) => {
    const text = typeof value === 'string' ? value.trim() : '';
    try {
      if (text.includes('/')) return ipaddr.parseCIDR(text);
      const address = ipaddr.parse(text);
      return [address, address.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
    } catch {
      throw new ConfigurationError(
        `Invalid trustedProxies (--trusted-proxy) entry ${JSON.stringify(value)}: give an address or a CIDR range, such as 10.0.0.0/8 or fd00::/8.`,
      );
    }
  });
}

/**
 * The caller of `request` as the limits count it: an IPv4 address, or the /64 of an IPv6 one (one
 * host holds a whole /64); `unknown` when no socket address was told (a runtime other than Node's
 * listener), so that such callers share one count.
 *
 * @example
 * ```ts
 * const caller = callerOf(request, trustedProxiesOf(['10.0.0.0/8']));
 * ```
 */
export function callerOf(request: Request, trusted: TrustedProxies): string {
  const socket = parsed(socketAddressOf(request));
  if (socket === undefined) return 'unknown';
  let caller = socket;
  if (isTrusted(caller, trusted)) {
    const hops = (request.headers.get('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim());
    for (const hop of hops.reverse()) {
      const address = parsed(hop);
      if (address === undefined) break;
      caller = address;
      if (!isTrusted(address, trusted)) break;
    }
  }
  if (caller.kind() === 'ipv4') return caller.toString();
  const prefix = (caller as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':');
  return `${prefix}::/64`;
}

/** An address, IPv4-mapped IPv6 ones as IPv4; `undefined` for anything else. */
function parsed(text: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (text === undefined || !ipaddr.isValid(text)) return undefined;
  return ipaddr.process(text);
}

/**
 * True when `address` is in a trusted range. Callers' addresses are IPv4 when they are IPv4-mapped
 * (`parsed`), while a range may be written either way (`::ffff:10.0.0.0/104` is `10.0.0.0/8`):
 * an IPv4 address is matched against IPv6 ranges in its mapped form too, so both spellings of a
 * range hold, and a dual-stack listener's `::ffff:` callers meet the ranges they are in.
 */
function isTrusted(address: ipaddr.IPv4 | ipaddr.IPv6, trusted: TrustedProxies): boolean {
  const mapped =
    address.kind() === 'ipv4' ? (address as ipaddr.IPv4).toIPv4MappedAddress() : address;
  return trusted.some(([range, bits]) =>
    range.kind() === address.kind()
      ? address.match(range as never, bits)
      : range.kind() === 'ipv6' && mapped.match(range as never, bits),
  );
}
