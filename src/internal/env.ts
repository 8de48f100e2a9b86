/**
 * Reads an environment variable where the runtime has one (Node, Bun, Deno with --allow-env).
 * Browsers and workers have no `process`; Deno without permission throws, which reads as unset.
 */
export function readEnv(name: string): string | undefined {
  try {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
      ?.env?.[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  } catch {
    return undefined;
  }
}
