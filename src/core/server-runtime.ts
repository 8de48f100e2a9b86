/**
 * What only a server runtime (Node, Bun, Deno, workerd) can use: the `User-Agent` naming the
 * application (`appInfo`), and a failed connection's causes read (a proxy's refusal, a certificate
 * problem). A web page sends the browser's own User-Agent, and its fetch fails with a bare
 * `TypeError` with no cause to read, so the build hands browsers `server-runtime.browser.ts` in
 * this module's place (package.json `imports`, `#server-runtime`, as for `#diagnostics`). It
 * imports nothing at run time: the ESM build loads it as a file of its own, and a shared chunk
 * would cost every app a file.
 */

/** An `appInfo` as the options' schema let it through (see options.ts). */
interface NamedApp {
  readonly name: string;
  readonly version?: string | undefined;
  readonly url?: string | undefined;
}

/** Where a proxy, a private CA and a client certificate are explained. */
const NETWORKS_DOC = 'https://github.com/agentchat/agentchat-js/blob/main/docs/networks.md';

/**
 * The `User-Agent` of every request: `sdk` (`agentchat-js/<version>`), then the application, when
 * `appInfo` names one (checked by the options' schema), as `<name>/<version> (<url>)`.
 */
export function userAgent(sdk: string, appInfo: NamedApp | undefined): string {
  if (appInfo === undefined) return sdk;
  const { name, version, url } = appInfo;
  const product = version === undefined ? name : `${name}/${version}`;
  return `${sdk} ${product}${url === undefined ? '' : ` (${url})`}`;
}

/**
 * The connection failure `error` (`fetch failed`, which Node's fetch says whatever happened) with
 * its deepest cause, the most precise (ECONNREFUSED, a proxy's 407 two causes down), or a
 * certificate problem met on the way, said as such; `undefined` when it has no cause to add.
 */
export function deepestCause(error: Error): string | undefined {
  let deepest = error;
  for (let depth = 0; depth < 4 && deepest.cause instanceof Error; depth++) {
    deepest = deepest.cause;
    const tls = tlsProblem(deepest);
    if (tls) return tls;
  }
  return deepest === error ? undefined : `${error.message}: ${deepest.message}`;
}

/**
 * A certificate problem said as such, with OpenSSL's or Node's code (an unknown CA, an expired or
 * mismatched certificate, a client certificate the server requires), and where the fix is told:
 * retrying cannot help, configuring can. Under TLS 1.3 a server that requires a client
 * certificate checks it after the handshake and closes the connection, and undici reports only
 * that the other side closed before a byte came back: said so, with the same pointer. `undefined`
 * for any other cause.
 */
function tlsProblem(error: Error): string | undefined {
  const { code, socket } = error as { code?: unknown; socket?: { bytesRead?: unknown } };
  const problem =
    typeof code !== 'string'
      ? undefined
      : /CERT|SSL|TLS|UNABLE_TO_|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH|HOSTNAME_MISMATCH/.test(
            code,
          )
        ? `TLS: ${code}, ${error.message}`
        : code === 'UND_ERR_SOCKET' && socket?.bytesRead === 0
          ? 'the server closed the connection before answering, as one that requires a client certificate does'
          : undefined;
  return (
    problem && `${problem}; for a proxy, a private CA or a client certificate see ${NETWORKS_DOC}`
  );
}
