/**
 * `agentchat-mcp --http --upstream-issuer`'s start-up errors name the flags given: never
 * `--authorization-server` (not given), and each front setting by its flag as well as its option.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { parseBinArguments } from '../../src/mcp/arguments.js';
import { serveOnHttp } from '../../src/mcp/http.js';

const quiet = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
const front = ['--http', '--upstream-issuer', 'http://127.0.0.1:9', '--upstream-client-id', 'app'];
const withKey = { AGENTCHAT_BASE_URL: 'http://127.0.0.1:9/api', AGENTCHAT_API_KEY: 'sk_flags_1' };

/** The message `agentchat-mcp <argv>` stops with, as the bin prints it, before it listens. */
async function startError(argv: readonly string[], env: Record<string, string>): Promise<string> {
  const error = await serveOnHttp(parseBinArguments(argv), env, quiet).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return (error as Error).message;
}

describe('agentchat-mcp --upstream-issuer: start-up errors', () => {
  it.each<[string, readonly string[], Record<string, string>, RegExp]>([
    [
      'no credential of its own',
      front,
      { AGENTCHAT_BASE_URL: 'http://127.0.0.1:9/api' },
      /^--upstream-issuer needs a credential of the server's own/,
    ],
    [
      'a public host without --resource',
      [...front, '--host', '0.0.0.0'],
      withKey,
      /^--host 0\.0\.0\.0 with --upstream-issuer needs --resource.*issuer hosts register with/,
    ],
    [
      'a scope without openid',
      [...front, '--upstream-scope', 'profile'],
      withKey,
      /Invalid upstreamScope \(--upstream-scope\) "profile"/,
    ],
    [
      'a plain-http resource off this machine',
      [...front, '--host', '0.0.0.0', '--resource', 'http://mcp.example.com/mcp'],
      withKey,
      /Invalid resource \(--resource\) "http:\/\/mcp\.example\.com\/mcp": with upstreamIssuer \(--upstream-issuer\)/,
    ],
    [
      'a plain-http issuer off this machine',
      ['--http', '--upstream-issuer', 'http://login.example.com', '--upstream-client-id', 'app'],
      withKey,
      /Invalid upstreamIssuer \(--upstream-issuer\) "http:\/\/login\.example\.com"/,
    ],
  ])('%s', async (_name, argv, env, message) => {
    const said = await startError(argv, env);
    expect(said).toMatch(message);
    expect(said).not.toContain('--authorization-server');
  });

  it('--authorization-server mode keeps naming its own flag', async () => {
    const said = await startError(
      ['--http', '--authorization-server', 'https://login.example.com', '--host', '0.0.0.0'],
      withKey,
    );
    expect(said).toMatch(/^--host 0\.0\.0\.0 with --authorization-server needs --resource/);
  });
});
