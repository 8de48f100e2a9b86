/**
 * What only a server runtime (Node, Bun, Deno, workerd) can use: the `User-Agent` naming the
 * application (`appInfo`), and a failed connection's causes read (a proxy's refusal, a certificate
 * problem, a dispatcher from the wrong undici), which also tells what no retry can mend. A web page sends the browser's own User-Agent, and its fetch fails with a bare
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
 * What a failed fetch's causes say (`fetch failed`, which Node's fetch says whatever happened):
 * its wording for a message, and whether another attempt could go otherwise.
 */
export interface FailureReading {
  /**
   * The failure with its deepest cause, the most precise (ECONNREFUSED, a proxy's refusal two
   * causes down), or the problem met on the way, said as such; `undefined` when it has no cause.
   */
  readonly detail: string | undefined;
  /**
   * A certificate problem or a proxy refusing its credentials: the next attempt would meet it
   * too, and only the configuration can mend it, so the call ends at once.
   */
  readonly final: boolean;
  /**
   * Set when the dispatcher comes from an undici this `fetch` cannot drive: the sentence of the
   * `ConfigurationError` the call ends with.
   */
  readonly misconfiguration?: string | undefined;
}

/**
 * Reads a failed fetch's causes, down to four deep (undici nests a proxy's refusal two down); a
 * custom `fetch` may throw anything, which has none. `secure` says the connection was TLS
 * (`https:`), where a connection closed before its first byte is a certificate problem (see
 * {@link tlsProblem}); over plain http it is a dropped connection, retried as any other.
 */
export function readFailure(error: unknown, secure = false): FailureReading {
  if (!(error instanceof Error)) return { detail: undefined, final: false };
  let deepest = error;
  for (let depth = 0; depth < 4 && deepest.cause instanceof Error; depth++) {
    deepest = deepest.cause;
    const misconfiguration = foreignDispatcher(deepest);
    if (misconfiguration) return { detail: misconfiguration, final: true, misconfiguration };
    const problem = tlsProblem(deepest, secure) ?? proxyRefusal(deepest);
    if (problem) return { detail: `${problem}; ${SEE_GUIDE}`, final: true };
  }
  return {
    detail: deepest === error ? undefined : `${error.message}: ${deepest.message}`,
    final: false,
  };
}

/** {@link readFailure}'s wording alone, for a message about a fetch that failed. */
export function deepestCause(error: unknown, secure = false): string | undefined {
  return readFailure(error, secure).detail;
}

const SEE_GUIDE = `for a proxy, a private CA or a client certificate see ${NETWORKS_DOC}`;

/**
 * A certificate problem said as such, with OpenSSL's or Node's code (an unknown CA, an expired or
 * mismatched certificate, a client certificate the server requires). Under TLS 1.3 a server that
 * requires a client certificate may check it after the handshake and close the connection, and
 * undici reports only that the other side closed before a single byte came back on a connection
 * that had never answered (a reused one has, so a dropped keep-alive connection is not taken for
 * it): said so. A new TLS connection closed unanswered for another reason is not retried
 * either; over plain http (`secure` false) nothing of the kind is at stake, and the close is a
 * dropped connection, retried. `undefined` for any other cause.
 */
function tlsProblem(error: Error, secure: boolean): string | undefined {
  const { code, socket } = error as { code?: unknown; socket?: { bytesRead?: unknown } };
  if (typeof code !== 'string') return undefined;
  if (
    /CERT|SSL|TLS|UNABLE_TO_|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH|HOSTNAME_MISMATCH/.test(code)
  ) {
    return `TLS: ${code}, ${error.message}`;
  }
  return secure && code === 'UND_ERR_SOCKET' && socket?.bytesRead === 0
    ? 'the server closed the connection before answering, as one that requires a client certificate does'
    : undefined;
}

/**
 * A proxy refusing the credentials in its URL, or their absence, as undici words it: a 407 (`Proxy
 * Authentication Required (407)` when it forwards, `Proxy response (407) !== 200 when HTTP
 * Tunneling` for a CONNECT), or the 401 some proxies answer a CONNECT with (tinyproxy does).
 */
function proxyRefusal(error: Error): string | undefined {
  const status =
    /^Proxy (?:response \((401|407)\) !== 200 when HTTP Tunneling|Authentication Required \((407)\))$/.exec(
      error.message,
    );
  if (!status) return undefined;
  return `the proxy refused its credentials (${status[1] ?? status[2]}): put the proxy's user and password in its URL`;
}

/**
 * A dispatcher from an undici this `fetch` cannot drive: a later major calls handler methods the
 * `fetch`'s own undici does not give (`invalid onRequestStart method`), and says so. The fitting
 * major is the built-in undici's, and 7 on Node.js 22, whose built-in undici 6 drives 7's
 * dispatchers (measured on 22.12 and 22.23) where `npm install undici@6` would pick a line past
 * its end of life.
 */
function foreignDispatcher(error: Error): string | undefined {
  const { code } = error as { code?: unknown };
  if (code !== 'UND_ERR_INVALID_ARG' || !/^invalid on[A-Z]\w* method$/.test(error.message)) {
    return undefined;
  }
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } })
    .process?.versions;
  const major = Number(versions?.undici?.split('.')[0]);
  const fitting = Number.isInteger(major)
    ? `Node.js ${versions?.node} (its fetch is undici ${versions?.undici}) takes undici ${Math.max(major, 7)}'s: npm install undici@${Math.max(major, 7)}`
    : "use the undici this runtime's fetch is built on";
  return `fetchOptions.dispatcher comes from an undici this fetch cannot drive (${error.message}). ${fitting}, or pass that undici's own fetch as the fetch option; see ${NETWORKS_DOC}`;
}
