/**
 * Issuer discovery and private_key_jwt from the packed tarball, in every server runtime the
 * package supports: Web Crypto signing through jose where each runtime has it, against a real
 * authorization server (oidc-provider) on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { runJson } from '../helpers/package-consumer.js';

const { node, bun, deno } = inject('runtimes');
let server: AuthorizationServer;
beforeAll(async () => {
  server = await startAuthorizationServer();
});
afterAll(() => server.close());

const runtimes = [
  ...node.map(({ version, bin }) => ({ name: `Node ${version}`, bin, flags: () => [] })),
  { name: `Bun ${bun.version}`, bin: bun.bin, flags: () => [] },
  {
    name: `Deno ${deno.version}`,
    bin: deno.bin,
    // Only the network, and only to the authorization server.
    flags: () => ['run', '--no-prompt', `--allow-net=${new URL(server.issuer).host}`],
  },
];

describe.each(runtimes)('$name', ({ bin, flags }) => {
  it('discovers the token endpoint and signs private_key_jwt with a PEM and a JWK', async () => {
    const { clientId, keyId, key } = server.keyClient;
    const args = [server.issuer, clientId, keyId, key.pem, JSON.stringify(key.jwk)];
    expect(await runJson(bin, [...flags(), 'oauth-signing.mjs', ...args])).toEqual({
      pem: { tokens: 2, opaque: true },
      jwk: { tokens: 2, opaque: true },
      refused: 'invalid_client',
    });
  });
});
