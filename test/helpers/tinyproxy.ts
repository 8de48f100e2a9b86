/**
 * A real HTTP proxy for the network tests: Debian's `tinyproxy` (`.ci/install-system-packages`
 * installs it), started on a free loopback port with basic authentication, as a company's proxy
 * would ask, and stopped by the test. What it forwarded is read from its own log.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { startProcess } from './run-process.js';

/** The proxy's credentials: what `Proxy-Authorization` must carry. */
export const PROXY_USER = 'proxy-user';
export const PROXY_PASSWORD = 'proxy-pass';

/** A running tinyproxy. */
export interface Tinyproxy {
  /** With the credentials, such as `http://proxy-user:proxy-pass@127.0.0.1:41234`. */
  readonly url: string;
  /** Without them, to prove the proxy refuses such requests (407). */
  readonly anonymousUrl: string;
  /**
   * The requests it took so far, as its log names them: `GET http://127.0.0.1:4010/api/...` for
   * a request forwarded, `CONNECT 127.0.0.1:4443` for a tunnel (https).
   */
  requests(): string[];
  /** Stops it and waits for it to be gone. */
  close(): Promise<void>;
}

/** How the proxy treats what it is asked to forward. */
export interface TinyproxyOptions {
  /**
   * True for a proxy that reaches nothing: every request answered 403 (an empty filter list,
   * denied by default), as a company's proxy answers for a host it does not serve. Still logged.
   */
  readonly denyAll?: boolean;
}

/** Starts tinyproxy and resolves once it accepts connections. */
export async function startTinyproxy(options: TinyproxyOptions = {}): Promise<Tinyproxy> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'agentchat-tinyproxy-'));
  const config = join(dir, 'tinyproxy.conf');
  const filter = join(dir, 'filter');
  if (options.denyAll) await writeFile(filter, '');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 60',
      // `Info`: the line that says it accepts connections, and one per request it takes.
      'LogLevel Info',
      'MaxClients 100',
      `BasicAuth ${PROXY_USER} ${PROXY_PASSWORD}`,
      'Allow 127.0.0.1',
      ...(options.denyAll ? [`Filter "${filter}"`, 'FilterDefaultDeny Yes', 'ConnectPort 1'] : []),
    ].join('\n'),
  );
  // -d: in the foreground, logging to standard output.
  const proxy = await startProcess('/usr/bin/tinyproxy', ['-d', '-c', config], {
    ready: /(Accepting connections)/,
  });
  const logged: string[] = [];
  proxy.child.stdout.on('data', (chunk: Buffer) => {
    for (const line of String(chunk).split('\n')) {
      const request = /Request \(file descriptor \d+\): (\S+ \S+)/.exec(line);
      if (request?.[1]) logged.push(request[1]);
    }
  });
  return {
    url: `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${port}`,
    anonymousUrl: `http://127.0.0.1:${port}`,
    requests: () => [...logged],
    close: async () => {
      proxy.child.kill('SIGTERM');
      await proxy.exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
