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
import { consumerPath, runJson } from '../helpers/package-consumer.js';

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
    // Only the network, and only to the authorization server; CommonJS is loaded through the
    // file system, so the CJS build also needs to read the consumer's folder.
    flags: (build: 'esm' | 'cjs') => [
      'run',
      '--no-prompt',
      `--allow-net=${new URL(server.issuer).host}`,
      ...(build === 'cjs' ? [`--allow-read=${consumerPath()}`] : []),
    ],
  },
];

describe.each(runtimes)('$name', ({ bin, flags }) => {
  it.each(['esm', 'cjs'] as const)(
    'discovers the token endpoint and signs private_key_jwt with a PEM and a JWK (%s)',
    async (build) => {
      const { clientId, keyId, key } = server.keyClient;
      const args = [build, server.issuer, clientId, keyId, key.pem, JSON.stringify(key.jwk)];
      expect(await runJson(bin, [...flags(build), 'oauth-signing.mjs', ...args])).toEqual({
        pem: { tokens: 2, opaque: true },
        jwk: { tokens: 2, opaque: true },
        refused: 'invalid_client',
      });
    },
  );
});
