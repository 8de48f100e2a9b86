/**
 * A real npm registry on 127.0.0.1 for the release test: verdaccio, started in this process on a
 * free port with its storage in a temp folder, and a user whose token may publish.
 *
 * It holds `agentchat` itself and never asks anyone else for it, so what a consumer installs is
 * exactly what the test published (and never a namesake from elsewhere). Every other package
 * (zod, which agentchat depends on; msw, its testing peer) it proxies to the registry npm already
 * uses on this machine, as a company registry would: a consumer then installs from one registry,
 * the way users do.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServer } from 'verdaccio';

/** A running local registry. */
export interface LocalRegistry {
  /** Such as `http://127.0.0.1:41234/`, with the trailing slash npm writes. */
  readonly url: string;
  /** A token of a user allowed to publish, for `//127.0.0.1:<port>/:_authToken=`. */
  readonly token: string;
  /** The lines of an `.npmrc` that installs from this registry and publishes to it. */
  readonly npmrc: string;
  /** Stops the server and deletes its storage. */
  close(): Promise<void>;
}

/** The name of the only package this registry keeps for itself. */
const OWN_PACKAGE = 'agentchat';

/**
 * Starts the registry. `upstream` is the registry other packages come from, normally the
 * output of `npm config get registry`.
 */
export async function startLocalRegistry(upstream: string): Promise<LocalRegistry> {
  const home = await mkdtemp(join(tmpdir(), 'agentchat-registry-'));
  await mkdir(join(home, 'storage'));
  let server: Server | undefined;
  try {
    const app = await runServer({
      self_path: home,
      storage: join(home, 'storage'),
      auth: { htpasswd: { file: join(home, 'htpasswd'), max_users: 1 } },
      uplinks: { upstream: { url: upstream } },
      packages: {
        // No `proxy`: agentchat is only ever what was published here.
        [OWN_PACKAGE]: { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
        '**': { access: '$all', publish: '$authenticated', proxy: 'upstream' },
      },
      web: { enable: false },
      // Only trouble: a passing test prints nothing of the registry's.
      log: { type: 'stdout', format: 'pretty', level: 'error' },
    } as unknown as Parameters<typeof runServer>[0]);
    server = app as Server;
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/`;
    const token = await addUser(url);
    return {
      url,
      token,
      npmrc: `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`,
      close: async () => {
        await stop(server);
        await rm(home, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stop(server);
    await rm(home, { recursive: true, force: true });
    throw error;
  }
}

/** Creates the publishing user as `npm adduser` does, and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'release';
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'release-test-password' }),
  });
  const body = (await response.json()) as { token?: unknown };
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(
      `The local registry refused the user (${response.status}): ${JSON.stringify(body)}`,
    );
  }
  return body.token;
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server?.listening) return;
  // npm keeps connections alive; without this, close() would wait for them to time out.
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
}
