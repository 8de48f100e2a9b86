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

/**
 * The value given under a name or under its deprecated alias, and the name it came under: the
 * alias warns once (as `label`), and both at once are refused with `refuse`'s error, since which
 * one was meant cannot be known. One rule for every alias, an option's or a command-line flag's.
 *
 * @param names the two names as messages give them (`corsOrigins`, `--cors-origin`), and the
 *   label the warning names the old one by.
 */
export function fromAlias<T>(
  value: T | undefined,
  oldValue: T | undefined,
  names: { readonly name: string; readonly oldName: string; readonly label: string },
  refuse: (message: string) => Error,
  warn?: (message: string) => void,
): { value: T | undefined; name: string } {
  if (oldValue === undefined) return { value, name: names.name };
  if (value !== undefined) {
    throw refuse(
      `give ${names.name} or ${names.oldName} (its deprecated alias), not both; they are the same option`,
    );
  }
  warnDeprecated(names.label, names.name, warn);
  return { value: oldValue, name: names.oldName };
}
