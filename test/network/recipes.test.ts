/**
 * The recipes of docs/networks.md, each run as the program a user would write, against the real
 * thing it is for: the proxy recipe through tinyproxy (the service, issuer discovery and the token
 * request), the private CA recipe against a service whose certificate that CA signs, the client
 * certificate recipe against one that requires it. The docs say to install the undici major Node.js
 * accepts; on this suite's Node.js 22 that is 7 (`undici7` here).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { createPrivateCa, type PrivateCa } from '../helpers/certificates.js';
import { repo } from '../helpers/doc-snippets.js';
import { runProcess, tsxLoader } from '../helpers/run-process.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';
import { startTlsService, type TlsService } from '../helpers/tls-service.js';

/** The marker before a fenced block of docs/networks.md that is a program of its own. */
const RECIPE = /^<!-- recipe: (\S+) -->\n```ts\n([\s\S]*?)\n```$/gm;

let recipes: Map<string, string>;
let scratch: string;
let proxy: Tinyproxy;
let mock: MockServer;
let issuer: AuthorizationServer;
let ca: PrivateCa;
let service: TlsService;
let mutual: TlsService;

beforeAll(async () => {
  const guide = await readFile(join(repo, 'docs/networks.md'), 'utf8');
  recipes = new Map([...guide.matchAll(RECIPE)].map((match) => [match[1] ?? '', match[2] ?? '']));
  // Inside the repository, so that tsconfig's paths map `agentchat` to src/.
  await mkdir(join(repo, '.tmp'), { recursive: true });
  scratch = await mkdtemp(join(repo, '.tmp', 'network-recipes-'));
  ca = await createPrivateCa();
  [proxy, mock, issuer, service, mutual] = await Promise.all([
    startTinyproxy(),
    startMockServer(),
    startAuthorizationServer(),
    startTlsService(ca),
    startTlsService(ca, { requireClientCertificate: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([
    proxy?.close(),
    mock?.close(),
    issuer?.close(),
    service?.close(),
    mutual?.close(),
  ]);
  await ca?.remove();
  await rm(scratch, { recursive: true, force: true });
});

/** Runs a recipe as its own program with only these variables, and returns what it printed. */
async function runRecipe(name: string, env: Record<string, string>): Promise<string> {
  const code = recipes.get(name);
  if (code === undefined) throw new Error(`docs/networks.md has no recipe ${name}`);
  const file = join(scratch, name);
  await writeFile(file, code.replaceAll("from 'undici'", "from 'undici7'"));
  const result = await runProcess(process.execPath, [...tsxLoader, file], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  if (result.code !== 0) throw new Error(`${name} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

describe('docs/networks.md', () => {
  it('has the three recipes this file runs', () => {
    expect([...recipes.keys()]).toEqual(['proxy.ts', 'private-ca.ts', 'client-certificate.ts']);
  });

  it('proxy.ts: the service, discovery and the token request all go through the proxy', async () => {
    const from = proxy.requests().length;
    const printed = await runRecipe('proxy.ts', {
      HTTPS_PROXY: proxy.url,
      AGENTCHAT_BASE_URL: mock.baseUrl,
      AGENTCHAT_ISSUER: issuer.issuer,
      AGENTCHAT_CLIENT_ID: issuer.secretClient.clientId,
      AGENTCHAT_CLIENT_SECRET: issuer.secretClient.clientSecret,
      AGENTCHAT_RESOURCE: issuer.resource,
    });
    expect(printed).toMatch(/^proj_\w+$/);
    const forwardedTo = (url: string) =>
      proxy
        .requests()
        .slice(from)
        .filter((request) => request.includes(new URL(url).host));
    await expect.poll(() => forwardedTo(mock.url)).toHaveLength(1);
    await expect.poll(() => forwardedTo(issuer.issuer).length).toBeGreaterThanOrEqual(2);
  });

  it('private-ca.ts: trusts the CA besides the usual ones', async () => {
    const printed = await runRecipe('private-ca.ts', {
      COMPANY_CA_FILE: ca.caCertPath,
      AGENTCHAT_BASE_URL: service.baseUrl,
      AGENTCHAT_API_KEY: 'sk_recipe',
    });
    expect(printed).toBe('Behind TLS');
  });

  it('client-certificate.ts: presents the certificate the service requires', async () => {
    const before = mutual.requests().length;
    const printed = await runRecipe('client-certificate.ts', {
      COMPANY_CA_FILE: ca.caCertPath,
      CLIENT_CERT_FILE: ca.clientCertPath,
      CLIENT_KEY_FILE: ca.clientKeyPath,
      AGENTCHAT_BASE_URL: mutual.baseUrl,
      AGENTCHAT_API_KEY: 'sk_recipe',
    });
    expect(printed).toBe('Behind TLS');
    expect(
      mutual
        .requests()
        .slice(before)
        .map((request) => request.clientName),
    ).toEqual([ca.clientName]);
  });
});
