/**
 * The MCP Inspector's web UI (v2, `mcp-inspector --web` of the devDependency
 * `@modelcontextprotocol/inspector`), started as a person starts it and driven in Chromium as a
 * person drives it: the server's Connect toggle, the authorization server's own sign-in and
 * consent pages, the Tools tab, a tool's form and its Execute button.
 *
 * Each Inspector gets ports of its own (its web UI on a free port, its sandbox and app origin on
 * ports the system picks) and a storage folder of its own, so that several run at once, one per
 * test file or engineer, without meeting on the fixed 6274. Its secrets stay in memory: nothing
 * of one run reaches the next.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright';
import { startProcess } from './run-process.js';

const inspectorBin = fileURLToPath(
  new URL('../../node_modules/.bin/mcp-inspector', import.meta.url),
);

/** The name the Inspector shows the server under, in its list and on its Connect toggle. */
export const INSPECTOR_SERVER_NAME = 'agentchat';

/** What the Inspector is started with. */
export interface McpInspectorOptions {
  /**
   * The MCP endpoint, as a person types it: the Inspector refuses a server whose RFC 9728
   * `resource` is not this very URL (`127.0.0.1` is not `localhost`).
   */
  readonly serverUrl: string;
  /**
   * A client id registered at the authorization server beforehand (a public client, PKCE), as
   * the Inspector's OAuth settings take it. Without one it registers itself (RFC 7591).
   *
   * @default none: dynamic registration
   */
  readonly clientId?: string;
  /**
   * The web UI's port, when a registered redirect URI names it.
   *
   * @default a free port
   */
  readonly port?: number;
}

/** A running Inspector web UI. */
export interface McpInspector {
  /** Where it is served: `http://127.0.0.1:<port>`, the origin hosts' redirect URIs name. */
  readonly origin: string;
  /** The redirect URI it sends people back to: `<origin>/oauth/callback`. */
  readonly redirectUri: string;
  /** The page to open, its session token included. */
  readonly url: string;
  /** Everything it has printed. */
  output(): string;
  /** Stops it and removes its storage folder. */
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 now, for a program that cannot be given 0. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts the Inspector's web UI with one Streamable HTTP server in its list (from a `--config`
 * file, as a team would share it), and resolves once it serves.
 */
export async function startMcpInspector(options: McpInspectorOptions): Promise<McpInspector> {
  const storage = await mkdtemp(join(tmpdir(), 'agentchat-inspector-'));
  const config = join(storage, 'servers.json');
  const server = {
    type: 'http',
    url: options.serverUrl,
    ...(options.clientId !== undefined && { oauth: { clientId: options.clientId } }),
  };
  await writeFile(config, JSON.stringify({ mcpServers: { [INSPECTOR_SERVER_NAME]: server } }));
  const port = options.port ?? (await freePort());
  const token = randomBytes(16).toString('hex');
  const started = await startProcess(inspectorBin, ['--web', '--config', config], {
    ready: /up and running at:\s+(\S+)/,
    env: {
      PATH: process.env.PATH,
      HOME: storage,
      HOST: '127.0.0.1',
      CLIENT_PORT: String(port),
      // 0: a port the system picks, so that two Inspectors never ask for the same one.
      MCP_SANDBOX_PORT: '0',
      MCP_APP_ORIGIN_PORT: '0',
      MCP_STORAGE_DIR: storage,
      MCP_INSPECTOR_SECRET_STORE: 'memory',
      MCP_INSPECTOR_API_TOKEN: token,
      MCP_AUTO_OPEN_ENABLED: 'false',
    },
  }).catch(async (error: unknown) => {
    await rm(storage, { recursive: true, force: true });
    throw error;
  });
  const origin = `http://127.0.0.1:${port}`;
  let output = '';
  started.child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  return {
    origin,
    redirectUri: `${origin}/oauth/callback`,
    url: started.ready,
    output: () => output + started.stderr(),
    stop: async () => {
      if (started.child.exitCode === null && started.child.signalCode === null) {
        started.child.kill('SIGTERM');
      }
      await started.exited;
      await rm(storage, { recursive: true, force: true });
    },
  };
}

/** An Inspector open in a browser context of its own (its own cookies), as a fresh profile. */
export interface InspectorPage {
  readonly page: Page;
  /** Every request the page sent, as `<method> <URL>`, in order: those to the authorization server among them. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** Opens the Inspector's web UI in a new context of `browser`. */
export async function openInspector(
  browser: Browser,
  inspector: McpInspector,
): Promise<InspectorPage> {
  const context: BrowserContext = await browser.newContext();
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
  await page.goto(inspector.url);
  return { page, requests, close: () => context.close() };
}

/**
 * Switches the server's Connect toggle on; `signIn` then plays the person at the authorization
 * server's pages (see {@link signInAtOidcProvider}). Resolves once the Inspector shows the server
 * connected, back on its own origin.
 */
export async function connectInInspector(
  { page }: InspectorPage,
  signIn: (page: Page) => Promise<void>,
): Promise<void> {
  await page
    .getByLabel(`Connect or disconnect "${INSPECTOR_SERVER_NAME}"`)
    // Mantine's switch draws over its input: the click is the person's on the toggle.
    .click({ force: true });
  await signIn(page);
  await page.getByText('Connected', { exact: true }).waitFor();
}

/**
 * Signs `login` in at oidc-provider's development pages (`features.devInteractions`, which take
 * any login and password) and allows what the host asked for on its consent page.
 */
export async function signInAtOidcProvider(page: Page, login: string): Promise<void> {
  await page.waitForURL(/\/interaction\//);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.locator('button[type=submit]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The tools the Tools tab lists, by name, in its order. */
export async function inspectorTools({ page }: InspectorPage): Promise<string[]> {
  await page.getByText('Tools', { exact: true }).click();
  const names = page.locator('button[data-variant=listItem] p[data-size=xs]');
  await names.first().waitFor();
  return names.allTextContents();
}

/**
 * Calls tool `name` from its form (each argument typed into its field), and returns the text of
 * its Results panel once shown, the structured output included; the panel is closed after.
 */
export async function callToolInInspector(
  { page }: InspectorPage,
  name: string,
  args: Readonly<Record<string, string>>,
): Promise<string> {
  await page.getByText('Tools', { exact: true }).click();
  await page.locator('button[data-variant=listItem]').filter({ hasText: name }).click();
  for (const [field, value] of Object.entries(args)) {
    await page.getByRole('textbox', { name: field, exact: true }).fill(value);
  }
  await page.getByRole('button', { name: 'Execute Tool' }).click();
  const close = page.getByRole('button', { name: 'Close results' });
  await close.waitFor();
  // The panel holding the Results heading and what follows it.
  const panel = page
    .getByRole('heading', { name: 'Results' })
    .locator('xpath=ancestor::div[contains(@class, "mantine-Stack-root")][1]');
  const text = (await panel.textContent()) ?? '';
  await close.click();
  return text;
}

/**
 * The schema-portability findings the Tools tab flags (its "Schema portability: 1 warning" marks),
 * as `<tool>: <finding>`; none for tools every client can take.
 */
export async function portabilityFindings({ page }: InspectorPage): Promise<string[]> {
  await page.getByText('Tools', { exact: true }).click();
  const tools = page.locator('button[data-variant=listItem]');
  await tools.first().waitFor();
  return tools.evaluateAll((items) =>
    items.flatMap((item) => {
      const name = item.querySelector('p[data-size=xs]')?.textContent ?? '?';
      return [...item.querySelectorAll('[role=img][aria-label*="portability" i]')].map(
        (mark) => `${name}: ${mark.getAttribute('aria-label')}`,
      );
    }),
  );
}
