import { describe, expect, it } from 'vitest';
import { AgentChatError, ConfigurationError } from '../../src/index.js';
import { parseBinArguments } from '../../src/mcp/arguments.js';

/** The message parseBinArguments refuses `argv` with; fails the test when it does not. */
function refusal(argv: string[]): string {
  try {
    parseBinArguments(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(AgentChatError);
    return (error as Error).message;
  }
  throw new Error('expected parseBinArguments to refuse the arguments');
}

describe('agentchat-mcp arguments', () => {
  it('serves stdio with every tool when given nothing', () => {
    expect(parseBinArguments([])).toEqual({
      action: 'serve',
      face: 'stdio',
      port: 8787,
      host: '127.0.0.1',
      allowedOrigins: [],
      allowRemote: false,
      requestTimeoutMs: 30_000,
      scope: { readOnly: false },
      apps: true,
    });
  });

  it('reads the HTTP options, the allowed origins repeated', () => {
    expect(
      parseBinArguments([
        '--http',
        '--port',
        '0',
        '--host',
        '::1',
        '--allowed-origin',
        'https://a.example',
        '--allowed-origin=https://b.example',
        '--allow-remote',
      ]),
    ).toMatchObject({
      face: 'http',
      port: 0,
      host: '::1',
      allowedOrigins: ['https://a.example', 'https://b.example'],
      allowRemote: true,
    });
  });

  it('reads the OAuth protected resource options', () => {
    expect(
      parseBinArguments([
        '--http',
        '--authorization-server',
        'https://auth.example.com',
        '--resource',
        'https://mcp.example.com/mcp',
        '--introspection',
        '--audience',
        'api://agentchat',
        '--audience',
        '3f2a9c1e-0000-4000-8000-000000000001',
      ]).authorization,
    ).toEqual({
      issuer: 'https://auth.example.com',
      resource: 'https://mcp.example.com/mcp',
      audience: ['api://agentchat', '3f2a9c1e-0000-4000-8000-000000000001'],
      introspection: true,
      scopeNames: {},
    });
    expect(
      parseBinArguments([
        '--http',
        '--authorization-server',
        'https://login.microsoftonline.com/tenant/v2.0',
        '--scope-prefix',
        'api://3f2a9c1e/',
        '--read-scope',
        'agentchat.read',
        '--write-scope=agentchat.write',
      ]).authorization?.scopeNames,
    ).toEqual({
      scopePrefix: 'api://3f2a9c1e/',
      readScope: 'agentchat.read',
      writeScope: 'agentchat.write',
    });
    // A name no scope can be is a bad value, refused with the command line (exit code 2).
    expect(
      refusal(['--http', '--authorization-server', 'https://a', '--read-scope', 'agentchat read']),
    ).toMatch(/^Invalid readScope \(--read-scope\) "agentchat read": a scope is printable ASCII/);
    for (const flag of ['--read-scope', '--write-scope', '--scope-prefix']) {
      expect(refusal(['--http', flag, 'x'])).toBe(
        `${flag} is for an OAuth protected resource: add --authorization-server.`,
      );
    }
    expect(
      parseBinArguments(['--http', '--authorization-server', 'https://a']).authorization?.audience,
    ).toEqual([]);
    expect(parseBinArguments(['--http']).authorization).toBeUndefined();
    expect(refusal(['--http', '--resource', 'https://mcp.example.com/mcp'])).toBe(
      '--resource is for an OAuth protected resource: add --authorization-server.',
    );
    expect(refusal(['--http', '--introspection'])).toMatch(/add --authorization-server/);
    expect(refusal(['--http', '--audience', 'api://x'])).toMatch(/add --authorization-server/);
    expect(refusal(['--authorization-server', 'https://auth.example.com'])).toBe(
      '--authorization-server is for the HTTP server: add --http.',
    );
    expect(refusal(['--http', '--authorisation-server', 'https://a'])).toMatch(
      /--authorization-server/,
    );
  });

  it('reads a tool scope for either face', () => {
    expect(parseBinArguments(['--tools', 'get_project, send_message']).scope).toEqual({
      readOnly: false,
      tools: ['get_project', 'send_message'],
    });
    expect(parseBinArguments(['--http', '--read-only']).scope).toEqual({ readOnly: true });
  });

  it('asks for the help or the version, whatever else is given', () => {
    expect(parseBinArguments(['--help']).action).toBe('help');
    expect(parseBinArguments(['-h', '--port', '1']).action).toBe('help');
    expect(parseBinArguments(['--version']).action).toBe('version');
    expect(parseBinArguments(['-v']).action).toBe('version');
  });

  it('names the option meant for an unknown one', () => {
    expect(refusal(['--readonly'])).toMatch(
      /^Unknown option --readonly; did you mean --read-only\?/,
    );
    expect(refusal(['--htp'])).toMatch(/^Unknown option --htp; did you mean --http\?/);
  });

  it('refuses a port that is not one', () => {
    expect(refusal(['--http', '--port', '80a'])).toBe(
      '--port "80a" is not a port: give 0 to 65535 (0 picks a free one).',
    );
    expect(refusal(['--http', '--port', '65536'])).toMatch(/^--port "65536" is not a port/);
  });

  it('reads a request timeout in whole milliseconds above 0, and refuses any other', () => {
    expect(parseBinArguments(['--http', '--request-timeout', '1000']).requestTimeoutMs).toBe(1000);
    expect(parseBinArguments(['--http', '--request-timeout=120000']).requestTimeoutMs).toBe(
      120_000,
    );
    // 0 would read as "no timeout" to some; a server without one is held open by slow clients.
    for (const bad of ['0', '-5', '1.5', '30s', '', ' 100', '1e3', '99999999999999999999']) {
      expect(refusal(['--http', `--request-timeout=${bad}`])).toBe(
        `--request-timeout takes a whole number of milliseconds above 0, got ${JSON.stringify(bad)}.`,
      );
    }
    expect(refusal(['--http', '--request-timout', '5'])).toMatch(
      /^Unknown option --request-timout; did you mean --request-timeout\?/,
    );
  });

  it('refuses HTTP options without --http', () => {
    expect(refusal(['--port', '8080'])).toBe('--port is for the HTTP server: add --http.');
    expect(refusal(['--request-timeout', '1000'])).toBe(
      '--request-timeout is for the HTTP server: add --http.',
    );
  });

  it('refuses positional arguments', () => {
    expect(refusal(['serve'])).toMatch(/^agentchat-mcp takes options only/);
  });
});
