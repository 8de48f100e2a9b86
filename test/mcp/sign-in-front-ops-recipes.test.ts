/**
 * docs/mcp.md's sign-in front recipes, run as the programs they are: the local identity provider
 * (oidc-provider with a client for the front), and the own-server recipes (`node:http`, Express,
 * Fastify) serving the front through `toNodeListener`; a host registers, a person signs in
 * through Chromium, the code is redeemed, and the token opens `/mcp`. Each block is read from the guide; only its ports, and
 * `agentchat` resolved to this checkout, are changed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { freePort } from '../helpers/free-port.js';
import { INITIALIZE } from '../helpers/mcp-http.js';
import { tsxLoader } from '../helpers/run-process.js';
import { signInThroughFront } from '../helpers/sign-in-front.js';
import { launchChromium, startRedirectTarget } from '../helpers/sign-in-host.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_KEY = 'sk_front_recipes_93b0';
const UPSTREAM_SECRET = 'recipe-upstream-secret';

let guide: string;
let scratch: string;
let service: MockServer;
let browser: Browser;
let redirect: { url: string; server: Server };
const children: ChildProcess[] = [];

beforeAll(async () => {
  guide = await readFile(join(repo, 'docs/mcp.md'), 'utf8');
  // Inside the checkout, so that the programs resolve its node_modules.
  await mkdir(join(repo, 'node_modules/.cache'), { recursive: true });
  scratch = await mkdtemp(join(repo, 'node_modules/.cache/agentchat-recipes-'));
  [service, browser, redirect] = await Promise.all([
    startMockServer({ apiKeys: [SERVER_KEY] }),
    launchChromium(),
    startRedirectTarget(),
  ]);
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await browser?.close();
  redirect?.server.close();
  await service?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The code block following the marker comment `<!-- name -->` in the guide. */
function block(name: string): string {
  const at = guide.indexOf(`<!-- ${name} -->`);
  expect(at, `docs/mcp.md has <!-- ${name} -->`).toBeGreaterThan(-1);
  const code = /```(?:ts|js)\n([\s\S]*?)```/.exec(guide.slice(at))?.[1];
  if (code === undefined) throw new Error(`no code block after <!-- ${name} -->`);
  return code;
}

/** Runs `code` as `file` in the scratch folder with `env`: its output, as it comes. */
async function run(file: string, code: string, env: Record<string, string>): Promise<() => string> {
  const path = join(scratch, file);
  await writeFile(path, code);
  const child = spawn(process.execPath, [...tsxLoader, path], {
    cwd: repo,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => {
    printed += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    printed += chunk;
  });
  return () => printed;
}

/** Waits until `url` answers `status`. */
async function answers(url: string, status: number): Promise<void> {
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(url)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(status);
}

/** A recipe of the guide as a program: its front at `frontPort`, its upstream at `upstreamPort`. */
function ownServer(name: string, frontPort: number, upstreamPort: number): string {
  return block(name)
    .replaceAll("from 'agentchat/mcp'", `from '${join(repo, 'src/mcp/index.ts')}'`)
    .replaceAll("from 'agentchat'", `from '${join(repo, 'src/index.ts')}'`)
    .replaceAll('8787', String(frontPort))
    .replaceAll('http://localhost:3000', `http://localhost:${upstreamPort}`);
}

describe('docs/mcp.md: the sign-in front in your own server', { timeout: 120_000 }, () => {
  it.each([['node'], ['express'], ['fastify']])(
    'the %s recipe, with the local identity provider, signs a person in',
    async (name) => {
      const [frontPort, upstreamPort] = [await freePort(), await freePort()];
      const origin = `http://127.0.0.1:${frontPort}`;
      const upstreamOutput = await run(`upstream-${name}.mjs`, block('front-upstream'), {
        ISSUER: `http://localhost:${upstreamPort}`,
        FRONT_ORIGIN: origin,
        AGENTCHAT_UPSTREAM_CLIENT_SECRET: UPSTREAM_SECRET,
      });
      await answers(`http://localhost:${upstreamPort}/.well-known/openid-configuration`, 200).catch(
        (error: unknown) => {
          throw new Error(`${String(error)}\n${upstreamOutput()}`);
        },
      );
      const frontOutput = await run(
        `front-${name}.ts`,
        ownServer(`own-server: ${name}`, frontPort, upstreamPort),
        {
          AGENTCHAT_BASE_URL: service.baseUrl,
          AGENTCHAT_API_KEY: SERVER_KEY,
          AGENTCHAT_UPSTREAM_CLIENT_SECRET: UPSTREAM_SECRET,
        },
      );
      // Ready: the upstream discovered (the readiness /health answers).
      await answers(`${origin}/health`, 200).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${frontOutput()}`);
      });
      // Mounted at the root: the metadata, /register and /authorize are the front's.
      const metadata = await fetch(`${origin}/.well-known/oauth-authorization-server`);
      expect(metadata.status).toBe(200);
      const { tokens } = await signInThroughFront(browser, origin, redirect.url);
      expect(tokens.access_token).toBeTruthy();
      expect(tokens.refresh_token).toBeTruthy();
      // And the token opens /mcp, its JSON body read by the handler whole.
      const initialize = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: INITIALIZE,
      });
      expect(initialize.status).toBe(200);
      expect(await initialize.text()).toContain('"serverInfo"');
    },
  );
});
