/**
 * How much the client logs. Each level includes the ones before it.
 *
 * @example
 * ```ts
 * // Or set AGENTCHAT_LOG=debug in the environment.
 * const client = new Client({ logLevel: 'debug' });
 * ```
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where log lines go; `console` fits, and so do pino, winston and most other loggers.
 *
 * Each attempt's line comes with a details object: `method`, `path`, `status`, `attempt`,
 * `maxAttempts`, `durationMs`, `requestId`, `retryInMs` when a retry follows, and the request's
 * `headers` with the Authorization header and other secret-named values redacted.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const logger: Logger = {
 *   error: (message) => lines.push(`error ${message}`),
 *   warn: (message) => lines.push(`warn ${message}`),
 *   info: (message) => lines.push(`info ${message}`),
 *   debug: (message) => lines.push(`debug ${message}`),
 * };
 * const client = new Client({ logger, logLevel: 'info' });
 * ```
 */
export interface Logger {
  /** Receives lines at `error` level. */
  error(message: string, ...details: unknown[]): void;
  /** Receives lines at `warn` level. */
  warn(message: string, ...details: unknown[]): void;
  /** Receives lines at `info` level: a failed attempt that is not retried. */
  info(message: string, ...details: unknown[]): void;
  /** Receives lines at `debug` level: each attempt, its status, duration and retry wait. */
  debug(message: string, ...details: unknown[]): void;
}

const severity: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** True when a logger set to `level` writes lines of `lineLevel`. */
export function logsAt(level: LogLevel, lineLevel: Exclude<LogLevel, 'off'>): boolean {
  return severity[lineLevel] <= severity[level];
}

/** True for a string naming a level, such as the value of `AGENTCHAT_LOG`. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(severity, value);
}

/** Writes one line at `level`, when the configured level lets it through. */
export type Log = (
  level: Exclude<LogLevel, 'off'>,
  message: string,
  details?: Record<string, unknown>,
) => void;

/**
 * A log function that drops lines above `level` and redacts secrets from everything it writes:
 * bearer tokens anywhere, and the values of authorization- and key-like fields. `undefined` when
 * logging is off, so callers can skip building a line nobody will read.
 */
export function createLog(logger: Logger | undefined, level: LogLevel): Log | undefined {
  if (level === 'off' || !logger) return undefined;
  return (lineLevel, message, details) => {
    if (severity[lineLevel] > severity[level]) return;
    const line = `agentchat: ${redactText(message)}`;
    if (details) logger[lineLevel](line, redact(details));
    else logger[lineLevel](line);
  };
}

const SECRET_KEY = /authorization|api[-_]?key|token|secret|password|cookie/i;

/** Replaces secret-looking values in a log detail object (nested objects included). */
export function redact(value: unknown, key = ''): unknown {
  if (SECRET_KEY.test(key) && value !== undefined && value !== null) return '[redacted]';
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map((item) => redact(item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

function redactText(text: string): string {
  return text.replace(/\b(Bearer|Basic)\s+[^\s"',;]+/gi, '$1 [redacted]');
}
