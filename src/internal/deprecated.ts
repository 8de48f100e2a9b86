/**
 * The one-time warning an old name gives while it stays as an alias of a new one (until 2.0, see
 * docs/upgrading.md): said once per process and name, so that a loop or a test suite using the
 * old name is not flooded, and written where the caller's own warnings go.
 */
const warned = new Set<string>();

/**
 * Warns, once per process, that `oldName` is deprecated in favour of `newName`.
 *
 * @param warn where the line goes: the caller's logger when it has one, else `console.warn`.
 */
export function warnDeprecated(
  oldName: string,
  newName: string,
  warn: (message: string) => void = (message) => globalThis.console?.warn(message),
): void {
  if (warned.has(oldName)) return;
  warned.add(oldName);
  warn(
    `agentchat: ${oldName} is deprecated and will be removed in 2.0; use ${newName} instead ` +
      '(it behaves the same). See docs/upgrading.md.',
  );
}
