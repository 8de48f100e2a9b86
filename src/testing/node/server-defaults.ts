/**
 * Defaults of `MockServerOptions` beyond the service's, in one place: apart from server.ts, which
 * loads msw, so that `agentchat-mock --help` can print them where msw is not installed.
 */
export const SERVER_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  basePath: '/api',
  requestTimeoutMs: 30_000,
} as const;
