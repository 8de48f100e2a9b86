/**
 * The sign-in front's rules one by one: the address table its document fetches connect by (every
 * special-use range of IPv4 and IPv6, and their other spellings), refused before any connection;
 * consumption marked once in each store, of 100 calls at once (memory, and a real redis-server);
 * and who a caller is, behind a trusted proxy or not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConfigurationError } from '../../src/index.js';
import { parseBinArguments } from '../../src/mcp/arguments.js';
import { callerOf, trustedProxiesOf } from '../../src/mcp/front/caller.js';
import {
  documentFetch,
  mayConnectTo,
  RefusedAddressError,
} from '../../src/mcp/front/document-fetch.js';
import { memoryAdapter } from '../../src/mcp/front/memory-store.js';
import type { FrontStore } from '../../src/mcp/front/options.js';
import { redisAdapter } from '../../src/mcp/front/redis-store.js';
import { rememberSocketAddress } from '../../src/mcp/front/socket-address.js';
import { createMcpHttpHandler } from '../../src/mcp/index.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

/** One address of each special-use range (IANA's IPv4 and IPv6 special-purpose registries). */
const SPECIAL_USE = [
  // IPv4
  '0.0.0.0',
  '0.1.2.3',
  '10.1.2.3',
  '100.64.0.1',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.9',
  '192.0.2.2',
  '192.31.196.1',
  '192.52.193.1',
  '192.88.99.1',
  '192.168.1.1',
  '192.175.48.1',
  '198.18.0.1',
  '198.51.100.1',
  '203.0.113.1',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  // IPv6
  '::',
  '::1',
  '::ffff:10.0.0.1',
  '::ffff:127.0.0.1',
  '::ffff:8.8.8.8',
  '::ffff:c000:202',
  '::10.0.0.1',
  '::a00:1',
  '::7f00:1',
  '::808:808',
  '100:0:0:1::1',
  '::ffff:0:10.0.0.1',
  '64:ff9b::a00:1',
  '64:ff9b::808:808',
  '64:ff9b:1::a00:1',
  '100::1',
  '2001::1',
  '2001:2::1',
  '2001:3::1',
  '2001:10::1',
  '2001:20::1',
  '2001:db8::1',
  '2002:a00:1::1',
  '2002:808:808::1',
  '2620:4f:8000::1',
  '3fff::1',
  '5f00::1',
  'fc00::1',
  'fd00::2',
  'fe80::1',
  'fec0::1',
  'ff02::1',
];

describe('the addresses a document is fetched from', () => {
  it.each(SPECIAL_USE)('refuses %s', (address) => {
    expect(mayConnectTo(address, false)).toBe(false);
  });

  it('connects to a global unicast address, in IPv4 or IPv6', () => {
    for (const address of ['8.8.8.8', '93.184.215.14', '2606:4700::6810:84e5', '2a00:1450::1']) {
      expect(mayConnectTo(address, false)).toBe(true);
    }
  });

  it('lets a URL naming this machine reach loopback, and nothing else special', () => {
    expect(mayConnectTo('127.0.0.1', true)).toBe(true);
    expect(mayConnectTo('::1', true)).toBe(true);
    expect(mayConnectTo('fd00::2', true)).toBe(false);
    expect(mayConnectTo('10.0.0.1', true)).toBe(false);
    expect(mayConnectTo('::ffff:127.0.0.1', true)).toBe(false);
  });

  it.each([
    'https://[64:ff9b::7f00:1]:1/doc.json',
    'https://[64:ff9b:1::a00:1]:1/doc.json',
    'https://[2002:7f00:1::]:1/doc.json',
    'https://[::127.0.0.1]:1/doc.json',
    'https://[fe80::1]:1/doc.json',
    'https://169.254.169.254/latest/meta-data',
    'https://2852039166/latest/meta-data',
    'https://0xa9.0xfe.0xa9.0xfe/latest/meta-data',
    'https://0251.0376.0251.0376/latest/meta-data',
    'https://[::ffff:a9fe:a9fe]/latest/meta-data',
  ])('refuses %s before connecting', async (url) => {
    const fetched = documentFetch(1024)(url, { signal: AbortSignal.timeout(5_000) });
    await expect(fetched).rejects.toBeInstanceOf(RefusedAddressError);
  });
});

describe.each([
  ['memory', async () => ({ adapter: memoryAdapter(), close: async () => {} })],
  ['Redis', async () => redisAdapter(redis.url)],
])(
  'consumption in the %s store',
  (_name, open: () => Promise<Pick<FrontStore, 'adapter' | 'close'>>) => {
    let store: Pick<FrontStore, 'adapter' | 'close'>;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('is marked by exactly one of 100 calls at once, and shows on the record', async () => {
      const codes = new store.adapter('AuthorizationCode');
      await codes.upsert('code-1', { grantId: 'grant-1', jti: 'code-1' } as never, 60);
      const marks = await Promise.all(Array.from({ length: 100 }, () => codes.consume('code-1')));
      expect(marks.filter((first) => first)).toHaveLength(1);
      expect((await codes.find('code-1'))?.consumed).toEqual(expect.any(Number));
      // Gone (revoked, expired): nobody consumes it.
      expect(await codes.consume('never-issued')).toBe(false);
      await codes.revokeByGrantId('grant-1');
      expect(await codes.find('code-1')).toBeUndefined();
    });
  },
);

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.kill();
});

describe('the caller', () => {
  const requestFrom = (socket: string, forwarded?: string) => {
    const request = new Request('http://127.0.0.1/register', {
      headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
    });
    rememberSocketAddress(request, socket);
    return request;
  };

  it('is the socket address, whatever X-Forwarded-For says, without a trusted proxy', () => {
    expect(callerOf(requestFrom('192.0.2.7', '198.51.100.1'), [])).toBe('192.0.2.7');
    expect(callerOf(requestFrom('::ffff:192.0.2.7'), [])).toBe('192.0.2.7');
  });

  it('is the nearest untrusted hop a trusted proxy names', () => {
    const trusted = trustedProxiesOf(['10.0.0.0/8', 'fd00::1']);
    expect(callerOf(requestFrom('10.0.0.5', '198.51.100.1, 10.0.0.9'), trusted)).toBe(
      '198.51.100.1',
    );
    // A hop the caller wrote before the proxy's is not believed past an untrusted one.
    expect(callerOf(requestFrom('fd00::1', '1.1.1.1, 198.51.100.2'), trusted)).toBe('198.51.100.2');
    // Garbage stops the walk at the last address believed.
    expect(callerOf(requestFrom('10.0.0.5', 'nonsense'), trusted)).toBe('10.0.0.5');
  });

  it('trusts a proxy whose address or range is written in its IPv4-mapped IPv6 form', () => {
    // Callers' IPv4-mapped addresses count as IPv4: a range in the mapped form still holds them.
    for (const range of ['::ffff:127.0.0.1/128', '::ffff:127.0.0.1', '::ffff:127.0.0.0/104']) {
      const trusted = trustedProxiesOf([range]);
      expect(callerOf(requestFrom('127.0.0.1', '198.51.100.3'), trusted)).toBe('198.51.100.3');
      expect(callerOf(requestFrom('::ffff:127.0.0.1', '198.51.100.4'), trusted)).toBe(
        '198.51.100.4',
      );
      // Outside the range, the header is still not believed.
      expect(callerOf(requestFrom('192.0.2.9', '198.51.100.5'), trusted)).toBe('192.0.2.9');
    }
    // An IPv6 range wider than the mapped block holds its IPv4 callers too; a plain IPv4 one
    // still holds mapped ones.
    expect(callerOf(requestFrom('10.1.2.3', '198.51.100.6'), trustedProxiesOf(['::/0']))).toBe(
      '198.51.100.6',
    );
    expect(
      callerOf(requestFrom('::ffff:10.1.2.3', '198.51.100.7'), trustedProxiesOf(['10.0.0.0/8'])),
    ).toBe('198.51.100.7');
  });

  it('counts an IPv6 caller by its /64, and an unknown one in one shared count', () => {
    expect(callerOf(requestFrom('2001:db8:1:2:aaaa::1'), [])).toBe(
      callerOf(requestFrom('2001:db8:1:2:bbbb::2'), []),
    );
    expect(callerOf(new Request('http://127.0.0.1/'), [])).toBe('unknown');
  });

  it('refuses a trusted proxy that is not an address or a range', () => {
    expect(() => trustedProxiesOf(['10.0.0.0/33'])).toThrow(ConfigurationError);
    expect(() => trustedProxiesOf(['proxy.internal'])).toThrow(/trustedProxies/);
    expect(() => trustedProxiesOf('10.0.0.1')).toThrow(ConfigurationError);
  });
});

describe('trusted proxies as configured', () => {
  const front = {
    client: new Client({ apiKey: 'sk_front_rules', baseUrl: 'http://127.0.0.1:9' }),
    resource: 'http://127.0.0.1:8787/mcp',
    upstreamIssuer: 'https://login.example.com',
    upstreamClientId: 'front-app',
  };

  it('are checked when the handler is made, and only with a front', () => {
    expect(() => createMcpHttpHandler({ ...front, trustedProxies: ['proxy.internal'] })).toThrow(
      /Invalid trustedProxies \(--trusted-proxy\) entry "proxy.internal"/,
    );
    expect(() =>
      createMcpHttpHandler({ client: front.client, trustedProxies: ['10.0.0.0/8'] }),
    ).toThrow(/trustedProxies is for the sign-in front: add upstreamIssuer/);
  });

  it('are read from --trusted-proxy, repeatable, with --upstream-issuer only', () => {
    const args = parseBinArguments([
      '--http',
      '--upstream-issuer',
      'https://login.example.com',
      '--upstream-client-id',
      'front-app',
      '--trusted-proxy',
      '10.0.0.0/8',
      '--trusted-proxy',
      'fd00::1',
    ]);
    expect(args.authorization?.upstream?.trustedProxies).toEqual(['10.0.0.0/8', 'fd00::1']);
    expect(() => parseBinArguments(['--http', '--trusted-proxy', '10.0.0.1'])).toThrow(
      /--trusted-proxy is for the sign-in front: add --upstream-issuer/,
    );
  });
});
