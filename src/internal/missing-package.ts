/**
 * True for the error of importing `name` (or one of its subpaths) when it is not installed: what
 * a bin checks before printing one line of advice about an optional peer instead of a stack.
 *
 * @example
 * ```ts
 * try {
 *   await import('msw');
 * } catch (error) {
 *   if (isMissingPackage(error, 'msw')) console.error('npm install msw');
 * }
 * ```
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    (message.includes(`'${name}'`) || message.includes(`'${name}/`))
  );
}
