/**
 * The identity token a platform writes to a file: a Kubernetes projected service-account token
 * (EKS's IRSA and AKS's workload identity mount one too), a token a sidecar or a CI step leaves.
 * Read afresh for every token request: the platform rotates the file in place.
 */
import { ConfigurationError, OAuthError } from '../core/errors/index.js';
import type { IdentityTokenSource } from './identity-token.js';

/** The runtime's file reading, where it has one: Node's and Bun's `node:fs`, or Deno's own. */
type ReadTextFile = (path: string) => Promise<string>;

/**
 * Reads without importing `node:fs`, which would put a module loader in a browser bundle: Node,
 * Bun and Deno hand their built-in modules to `process.getBuiltinModule`; older Deno has
 * `Deno.readTextFile`.
 */
function fileReader(): ReadTextFile | undefined {
  const runtime = globalThis as {
    process?: { getBuiltinModule?: (id: string) => unknown };
    Deno?: { readTextFile?: ReadTextFile };
  };
  const fs = runtime.process?.getBuiltinModule?.('node:fs/promises') as
    | { readFile(path: string, encoding: 'utf8'): Promise<string> }
    | undefined;
  if (fs) return (path) => fs.readFile(path, 'utf8');
  const deno = runtime.Deno?.readTextFile;
  return deno && ((path) => deno(path));
}

/**
 * An identity source that reads the token from a file, afresh for every token request, since the
 * platform rotates it in place. The file's trailing line break is no part of the token.
 *
 * Kubernetes (and EKS, AKS) mount a projected service-account token for the audience the
 * authorization server trusts; give its path here, or set `AGENTCHAT_IDENTITY_TOKEN_FILE` and let
 * {@link workloadIdentity} read it. A file that cannot be read fails the call with
 * {@link OAuthError} naming the path and the reason (`ENOENT`, `EACCES`), never its contents.
 *
 * @throws {@link ConfigurationError} when `path` is not a non-empty string, or the runtime has no
 * file system (a browser, a worker).
 * @example
 * ```ts
 * const apiKey = workloadIdentity({
 *   issuer: 'https://auth.example.com',
 *   identityToken: identityTokenFile('/var/run/secrets/tokens/agentchat'),
 * });
 * ```
 */
export function identityTokenFile(path: string): IdentityTokenSource {
  if (typeof path !== 'string' || path.trim() === '') {
    throw new ConfigurationError(
      `identityTokenFile: expected the path of the identity token file, received ${path === '' ? 'an empty string' : typeof path}`,
    );
  }
  const read = fileReader();
  if (!read) {
    throw new ConfigurationError(
      'identityTokenFile: this runtime has no file system to read from (Node, Bun and Deno have one); give identityToken a source that fetches the token instead',
    );
  }
  return async function identityTokenFromFile() {
    try {
      return await read(path);
    } catch (error) {
      const code = (error as { code?: unknown; name?: unknown }).code ?? (error as Error).name;
      throw new OAuthError({
        status: 0,
        problem:
          `the identity token file ${path} cannot be read${typeof code === 'string' ? ` (${code})` : ''}: ` +
          'on Kubernetes, check that the pod mounts the projected service-account token volume at that path ' +
          '(serviceAccountToken with the audience the authorization server trusts); elsewhere, that ' +
          'AGENTCHAT_IDENTITY_TOKEN_FILE names the file the platform writes',
      });
    }
  };
}
