/**
 * Loaded with `node --import` into a child process under test: resolves the host names that
 * `TEST_HOST_ADDRESSES` maps (`name=address,...`) to their address, and every other name as
 * usual. Tests may not edit /etc/hosts, yet some must reach this machine under a name that is not
 * loopback (a URL the code under test refuses for its host name): Node's sockets resolve through
 * `dns.lookup`, read when each connection starts, so wrapping it here gives that process, and only
 * it, the name.
 */
import dns from 'node:dns';

const addresses = new Map(
  (process.env.TEST_HOST_ADDRESSES ?? '')
    .split(',')
    .filter((entry) => entry.includes('='))
    .map((entry) => entry.split('=', 2)),
);
const lookup = dns.lookup;
dns.lookup = function lookupTestHosts(hostname, ...rest) {
  return lookup.call(this, addresses.get(hostname) ?? hostname, ...rest);
};
