/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, its own bin in a child
 * process) against `agentchat-mcp --http` started from source:
 *
 * - its server scenarios, all of them, at both wires the server speaks (the 2025-11-25
 *   handshake and 2026-07-28's stateless requests: SELECTIONS), against the server in
 *   pass-through mode (a service key per request) and protected (`--authorization-server` with a
 *   real oidc-provider, an RFC 9068 token per request). The suite sends no credential of its own
 *   (its server command takes none), so a proxy adds the host's (credential-proxy.ts).
 *   conformance-baseline.yml lists what is expected to fail and why; the suite fails the run on
 *   a scenario failing outside it and on an entry that now passes.
 * - its authorization-server scenarios against the sign-in front (`--upstream-issuer`): the
 *   metadata, and the code grant, the person's part played in Chromium (consent, then the
 *   upstream's login). That command takes no baseline, so this file judges its results by the
 *   same rules against the baseline's `authorization` list.
 *
 * Everything runs on 127.0.0.1; the suite fetches nothing else.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  type AuthorizationServer,
  mcpScopes,
  startAuthorizationServer,
} from '../helpers/authorization-server.js';
import { type CredentialProxy, startCredentialProxy } from '../helpers/credential-proxy.js';
import { freePort } from '../helpers/free-port.js';
import { type FrontProcess, startFrontProcess } from '../helpers/front-process.js';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import { runProcess, startProcess, tsxLoader } from '../helpers/run-process.js';
import { launchChromium, registerPublicClient, signInAsPerson } from '../helpers/sign-in-host.js';

const SERVER_KEY = 'sk_conformance_8c2e41';
const repo = fileURLToPath(new URL('../..', import.meta.url));
const baselineFile = fileURLToPath(new URL('./conformance-baseline.yml', import.meta.url));
/** The suite's bin, run by this Node.js (the suite needs 22's `fs.globSync`). */
const suiteBin = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/conformance/dist/index.js',
);
/**
 * The server scenarios run per mode: every one the suite has, each at its default wire (the
 * 2025-11-25 handshake, or 2026-07-28 for the scenarios of that revision only); then those the
 * 2026-07-28 revision requires, at its stateless wire.
 */
const SELECTIONS = [
  ['--suite', 'all'],
  ['--requirements', '2026-07-28'],
] as const;
/** Bounds a run that hangs; a run takes about 5 s on a quiet machine. */
const RUN_TIMEOUT_MS = 120_000;

let service: MockServer;
let issuer: AuthorizationServer;
let browser: Browser;
let workDir: string;
/** One server per mode: pass-through, protected, and the sign-in front. */
let plain: McpHttpProcess;
let protectedServer: McpHttpProcess;
let signInFront: FrontProcess;
let front: McpHttpProcess;
/** Such as `http://127.0.0.1:41234`: the front's origin, its issuer. */
let frontOrigin: string;
const servers: McpHttpProcess[] = [];
const proxies: CredentialProxy[] = [];

/** `agentchat-mcp --http` from source on a free port, with `args` and `env`. */
async function startServer(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<McpHttpProcess> {
  const server = await startMcpHttp(
    process.execPath,
    [...tsxLoader, 'src/mcp/bin.ts', '--http', '--port', '0', ...args],
    { cwd: repo, env: { PATH: process.env.PATH, AGENTCHAT_BASE_URL: service.baseUrl, ...env } },
  );
  servers.push(server);
  return server;
}

/** The suite's command line, run to its end in the work directory. */
function runSuite(args: readonly string[]) {
  return runProcess(process.execPath, [suiteBin, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH },
    timeoutMs: RUN_TIMEOUT_MS,
  });
}

/** The suite's server scenarios of `selection` against `url`, judged by the baseline. */
async function expectServerConformance(url: string, selection: readonly string[]): Promise<void> {
  const { code, stdout, stderr } = await runSuite([
    'server',
    '--url',
    url,
    ...selection,
    '--expected-failures',
    baselineFile,
  ]);
  // Its verdict on the baseline closes its output: unexpected failures, stale entries.
  const verdict = stdout.slice(stdout.lastIndexOf('=== SUMMARY ==='));
  expect(code, `${verdict}\n${stderr}`).toBe(0);
  expect(verdict).toContain('Baseline check passed');
}

beforeAll(async () => {
  [service, issuer, browser, workDir] = await Promise.all([
    startMockServer({ apiKeys: [SERVER_KEY] }),
    startAuthorizationServer(),
    launchChromium(),
    mkdtemp(join(tmpdir(), 'agentchat-conformance-')),
  ]);
  [plain, protectedServer, signInFront] = await Promise.all([
    startServer([]),
    startServer(['--authorization-server', issuer.issuer], { AGENTCHAT_API_KEY: SERVER_KEY }),
    startFrontProcess({ serverKey: SERVER_KEY, service }),
  ]);
  front = signInFront.bin;
  frontOrigin = signInFront.origin;
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all(servers.map((server) => server.stop()));
  await signInFront?.close();
  await issuer?.close();
  await service?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** A proxy to `url` sending `authorization`, closed after the file. */
async function withCredential(url: string, authorization: string): Promise<CredentialProxy> {
  const proxy = await startCredentialProxy(url, authorization);
  proxies.push(proxy);
  return proxy;
}

describe('the MCP conformance suite, server scenarios', { timeout: 4 * RUN_TIMEOUT_MS }, () => {
  /** The pass-through server behind a host that sends the service key. */
  let plainProxy: CredentialProxy;

  beforeAll(async () => {
    plainProxy = await withCredential(plain.url, `Bearer ${SERVER_KEY}`);
  });

  it('holds for agentchat-mcp --http with a service key per request', async () => {
    await Promise.all(
      SELECTIONS.map((selection) => expectServerConformance(plainProxy.url, selection)),
    );
  });

  it('holds for agentchat-mcp --http --authorization-server with a token per request', async () => {
    // An RFC 9068 token for the endpoint, with the scopes of every tool.
    issuer.addMcpResource(protectedServer.url);
    const token = await issuer.issueToken(issuer.mcpClients.writer, protectedServer.url, mcpScopes);
    const proxy = await withCredential(protectedServer.url, `Bearer ${token}`);
    await Promise.all(SELECTIONS.map((selection) => expectServerConformance(proxy.url, selection)));
  });

  it('fails a run on a failure the baseline does not list', async () => {
    // No credential reaches the server: the scenario meets a 401.
    const { code, stdout } = await runSuite([
      'server',
      '--url',
      plain.url,
      '--scenario',
      'tools-list',
      '--expected-failures',
      baselineFile,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Unexpected failures \(not in baseline\)[\s\S]*tools-list/);
  });

  it('fails a run on a baseline entry that now passes', async () => {
    const stale = join(workDir, 'stale-baseline.yml');
    await writeFile(stale, 'server:\n  - ping\n');
    const { code, stdout } = await runSuite([
      'server',
      '--url',
      plainProxy.url,
      '--scenario',
      'ping',
      '--expected-failures',
      stale,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Stale baseline entries[\s\S]*ping/);
  });
});

/** A check as the suite records it in `checks.json`. */
interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  readonly errorMessage?: string;
}

/**
 * The suite's verdict rules for its `server` and `client` baselines, for the `authorization`
 * command that takes none: a failure or warning outside `expected` is unexpected, and an expected
 * scenario that passes is stale.
 */
function judge(results: ReadonlyMap<string, readonly Check[]>, expected: readonly string[]) {
  const failed = (checks: readonly Check[]) =>
    checks.some((check) => check.status === 'FAILURE' || check.status === 'WARNING');
  const unexpected = [...results]
    .filter(([scenario, checks]) => failed(checks) && !expected.includes(scenario))
    .map(([scenario, checks]) => ({
      scenario,
      errors: checks.filter((check) => check.errorMessage).map((check) => check.errorMessage),
    }));
  const stale = expected.filter((scenario) => {
    const checks = results.get(scenario);
    return checks !== undefined && !failed(checks);
  });
  return { unexpected, stale };
}

/** Each scenario's checks in a results directory of the suite (`-o`), by scenario name. */
async function readResults(directory: string): Promise<Map<string, Check[]>> {
  const results = new Map<string, Check[]>();
  for (const entry of await readdir(directory)) {
    // Named `authorization-server-<scenario>-<timestamp>`.
    const scenario = entry
      .replace(/^authorization-server-/, '')
      .replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    const checks = JSON.parse(await readFile(join(directory, entry, 'checks.json'), 'utf8'));
    results.set(scenario, checks as Check[]);
  }
  return results;
}

describe('the MCP conformance suite, authorization-server scenarios', { timeout: 180_000 }, () => {
  it('holds for the sign-in front: its metadata, and a code grant a person signs in to', async () => {
    // The suite's client, registered as a host registers, redirecting to the suite's callback.
    const callbackPort = await freePort();
    const callback = `http://127.0.0.1:${callbackPort}/callback`;
    const { clientId } = await registerPublicClient(frontOrigin, callback, 'Conformance suite');
    const results = join(workDir, 'authorization');
    const suite = await startProcess(
      process.execPath,
      [
        suiteBin,
        'authorization',
        '--url',
        frontOrigin,
        '--client-id',
        clientId,
        '--port',
        String(callbackPort),
        '--resource',
        front.url,
        '-o',
        results,
      ],
      // It prints the URL a person is to open, then waits for its callback.
      { ready: /^(http:\/\/127\.0\.0\.1:\d+\/\S+\?\S*response_type=code\S*)$/m, cwd: workDir },
    );
    let printed = '';
    suite.child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk;
    });
    try {
      const page = await browser.newPage();
      await signInAsPerson(page, new URL(suite.ready), callback);
      await suite.exited;
    } finally {
      // It waits 5 minutes for a callback that a failed sign-in never sends.
      suite.child.kill();
    }

    const { authorization: expected } = parse(await readFile(baselineFile, 'utf8')) as {
      authorization: string[];
    };
    const checks = await readResults(results);
    expect([...checks.keys()].sort(), printed).toEqual([
      'authorization-code-grant',
      'authorization-server-metadata-endpoint',
    ]);
    expect(judge(checks, expected), printed).toEqual({ unexpected: [], stale: [] });
  });
});
