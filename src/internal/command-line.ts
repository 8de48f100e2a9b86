import { closest } from './closest.js';

/** Whether `error` is one of `node:util` parseArgs's refusals of a command line. */
export function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * parseArgs's refusal of a bin's command line, worded like the client's messages: an unknown
 * option names the one probably meant and lists them all. `options` are parseArgs's own, keyed by
 * long name; `bin` names the command for a stray positional argument.
 */
export function describeParseArgsError(
  error: unknown,
  options: Readonly<Record<string, unknown>>,
  bin: string,
): string {
  const { code, message } = error as { code?: string; message?: string };
  const known = Object.keys(options).map((name) => `--${name}`);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'(-{1,2}[^'=]+)/.exec(message ?? '')?.[1] ?? '';
    const meant = closest(given, known);
    return `Unknown option ${given}${meant ? `; did you mean ${meant}?` : ''} (the options are ${known.join(', ')}).`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return `${bin} takes options only (${known.join(', ')}).`;
  }
  return (message ?? 'An option has a bad value').replace(/\.?$/, '.');
}
