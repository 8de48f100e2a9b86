/**
 * `AGENTCHAT_SIGNING_KEY` (`signingKey`) as openssl writes a private key: PKCS#8 (`genpkey`),
 * SEC1 EC (`ecparam -genkey`), PKCS#1 RSA (`genrsa -traditional`), and Ed25519: each is the key
 * the front publishes at `/jwks` and signs with. An encrypted PEM is refused without quoting it.
 */
import { createPublicKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConfigurationError } from '../../src/index.js';
import { createMcpHttpHandler } from '../../src/mcp/index.js';
import { runProcess } from '../helpers/run-process.js';
import {
  startUpstreamIdentityProvider,
  type UpstreamIdentityProvider,
} from '../helpers/upstream-identity-provider.js';

const ORIGIN = 'http://127.0.0.1:8787';
let upstream: UpstreamIdentityProvider;

beforeAll(async () => {
  upstream = await startUpstreamIdentityProvider(ORIGIN);
});
afterAll(() => upstream?.close());

/** What `openssl <args>` prints on standard output. */
async function openssl(args: readonly string[]): Promise<string> {
  const { code, stdout, stderr } = await runProcess('openssl', args);
  if (code !== 0) throw new Error(`openssl ${args.join(' ')}: ${stderr}`);
  return stdout;
}

function handlerWith(signingKey: string) {
  return createMcpHttpHandler({
    client: new Client({ apiKey: 'sk_signing_key_2a', baseUrl: 'http://127.0.0.1:9/api' }),
    resource: `${ORIGIN}/mcp`,
    upstreamIssuer: upstream.issuer,
    upstreamClientId: upstream.clientId,
    upstreamClientSecret: upstream.clientSecret,
    signingKey,
  });
}

describe('AGENTCHAT_SIGNING_KEY as openssl writes it', { timeout: 60_000 }, () => {
  it.each<[string, readonly string[], RegExp, string]>([
    [
      'PKCS#8 (openssl genpkey)',
      ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
      /^-----BEGIN PRIVATE KEY-----/,
      'ES256',
    ],
    [
      'SEC1 EC (openssl ecparam -genkey)',
      ['ecparam', '-genkey', '-name', 'prime256v1', '-noout'],
      /^-----BEGIN EC PRIVATE KEY-----/,
      'ES256',
    ],
    [
      'PKCS#1 RSA (openssl genrsa -traditional)',
      ['genrsa', '-traditional', '2048'],
      /^-----BEGIN RSA PRIVATE KEY-----/,
      'RS256',
    ],
    [
      'Ed25519 (openssl genpkey)',
      ['genpkey', '-algorithm', 'ed25519'],
      /^-----BEGIN PRIVATE KEY-----/,
      'EdDSA',
    ],
  ])('%s is the key the front publishes', async (_name, args, shape, alg) => {
    const pem = await openssl(args);
    expect(pem).toMatch(shape);
    const handler = handlerWith(pem);
    try {
      const answer = await handler.fetch(new Request(`${ORIGIN}/jwks`));
      expect(answer.status).toBe(200);
      const { keys } = (await answer.json()) as { keys: Array<Record<string, unknown>> };
      const expected = createPublicKey(pem).export({ format: 'jwk' });
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({ ...expected, alg });
      expect(keys[0]).not.toHaveProperty('d');
    } finally {
      await handler.close();
    }
  });

  it('is made by the one command docs/mcp.md gives', async () => {
    const guide = await readFile(
      fileURLToPath(new URL('../../docs/mcp.md', import.meta.url)),
      'utf8',
    );
    const command = /^openssl .* -out signing-key\.pem$/m.exec(guide)?.[0];
    expect(command).toBeDefined();
    const dir = await mkdtemp(join(tmpdir(), 'agentchat-signing-key-'));
    try {
      const made = await runProcess('sh', ['-c', command as string], { cwd: dir });
      expect(made.code).toBe(0);
      const pem = await readFile(join(dir, 'signing-key.pem'), 'utf8');
      const handler = handlerWith(pem);
      try {
        const { keys } = (await (await handler.fetch(new Request(`${ORIGIN}/jwks`))).json()) as {
          keys: Array<Record<string, unknown>>;
        };
        expect(keys[0]).toMatchObject(createPublicKey(pem).export({ format: 'jwk' }));
      } finally {
        await handler.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an encrypted PEM at construction, without quoting it', async () => {
    const pem = await openssl([
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-aes-256-cbc',
      '-pass',
      'pass:secret-pass',
    ]);
    expect(pem).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----/);
    expect(() => handlerWith(pem)).toThrow(ConfigurationError);
    expect(() => handlerWith(pem)).toThrow(/BEGIN EC PRIVATE KEY/);
    try {
      handlerWith(pem);
    } catch (error) {
      expect((error as Error).message).not.toContain(pem.split('\n')[1]);
    }
  });
});
