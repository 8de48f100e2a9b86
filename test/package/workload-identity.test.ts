/**
 * Workload identity federation from the packed tarball, in every server runtime the package
 * supports: each identity source (a file, the GitHub Actions runner, the metadata server) against
 * its stand-in on 127.0.0.1, traded at a real authorization server (oidc-provider with the
 * jwt-bearer and token-exchange grants) for a token the service accepts, and an untrusted
 * identity token refused.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type AuthorizationServer,
  serverScope,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { WORKLOAD_CLIENT_ID } from '../helpers/federation-grants.js';
import { consumerPath, runJson } from '../helpers/package-consumer.js';
import { startVerifyingService, type VerifyingService } from '../helpers/verifying-service.js';
import {
  startWorkloadPlatform,
  WORKLOAD_SUBJECT,
  type WorkloadPlatform,
} from '../helpers/workload-platform.js';

const AUDIENCE = 'https://auth.agentchat.test';
const { node, bun, deno } = inject('runtimes');
let platform: WorkloadPlatform;
let server: AuthorizationServer;
let service: VerifyingService;
let scratch: string;
let settings: string;
beforeAll(async () => {
  platform = await startWorkloadPlatform();
  server = await startAuthorizationServer({
    trust: { issuer: platform.issuer, jwksUri: platform.jwksUri, audience: AUDIENCE },
  });
  service = await startVerifyingService(server.issuer, server.resource);
  scratch = await mkdtemp(join(tmpdir(), 'agentchat-runtime-identity-'));
  const tokenFile = join(scratch, 'token');
  // Valid for 10 minutes: the whole matrix runs well inside that.
  await writeFile(tokenFile, await platform.sign({ sub: WORKLOAD_SUBJECT, aud: AUDIENCE }));
  const untrustedFile = join(scratch, 'untrusted');
  const { privateKey } = await generateKeyPair('ES256');
  const untrusted = await new SignJWT({ sub: WORKLOAD_SUBJECT, aud: AUDIENCE })
    .setProtectedHeader({ alg: 'ES256', kid: 'platform-1' })
    .setIssuer(platform.issuer)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey);
  await writeFile(untrustedFile, untrusted);
  settings = JSON.stringify({
    issuer: server.issuer,
    clientId: WORKLOAD_CLIENT_ID,
    scope: serverScope,
    resource: server.resource,
    audience: AUDIENCE,
    baseUrl: service.baseUrl,
    tokenFile,
    untrustedFile,
    githubUrl: platform.githubEnv.ACTIONS_ID_TOKEN_REQUEST_URL,
    githubToken: platform.githubEnv.ACTIONS_ID_TOKEN_REQUEST_TOKEN,
    metadataHost: platform.host,
  });
});
afterAll(async () => {
  await Promise.all([platform?.close(), server?.close(), service?.close()]);
  await rm(scratch, { recursive: true, force: true });
});

const runtimes = [
  ...node.map(({ version, bin }) => ({ name: `Node ${version}`, bin, flags: () => [] })),
  { name: `Bun ${bun.version}`, bin: bun.bin, flags: () => [] },
  {
    name: `Deno ${deno.version}`,
    bin: deno.bin,
    // Only the three servers, the token files, and the platform's variables; CommonJS is loaded
    // through the file system, so the CJS build also needs to read the consumer's folder.
    flags: (build: 'esm' | 'cjs') => [
      'run',
      '--no-prompt',
      `--allow-net=${[platform.issuer, server.issuer, service.baseUrl].map((url) => new URL(url).host).join(',')}`,
      `--allow-read=${[scratch, ...(build === 'cjs' ? [consumerPath()] : [])].join(',')}`,
      '--allow-env',
    ],
  },
];

describe.each(runtimes)('$name', ({ bin, flags }) => {
  it.each(['esm', 'cjs'] as const)(
    'trades each identity source for a token the service accepts, and is refused an untrusted one (%s)',
    async (build) => {
      expect(
        await runJson(bin, [...flags(build), 'workload-identity.mjs', build, settings]),
      ).toEqual({
        file: 'Federated by file',
        github: 'Federated by github',
        google: 'Federated by google',
        untrusted: 'invalid_grant',
      });
    },
  );
});
