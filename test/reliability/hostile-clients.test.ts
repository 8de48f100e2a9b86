/**
 * Our servers as targets: `agentchat-mock` and `agentchat-mcp --http` run as real processes on
 * 127.0.0.1 and are met by clients an attacker or a careless script would write, over raw
 * sockets. Memory is read from the server's process, not from this one.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import { rawExchange } from '../helpers/raw-http.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

describe('agentchat-mcp --http', { timeout: 60_000 }, () => {
  let mcp: McpHttpProcess | undefined;
  afterAll(() => mcp?.stop());

  it('answers 400, not 500, to requests fetch cannot represent, and writes one log line for them all', async () => {
    mcp = await startMcpHttp(
      process.execPath,
      [tsxCli, 'src/mcp/bin.ts', '--http', '--port', '0'],
      {
        cwd: repo,
        env: { PATH: process.env.PATH, AGENTCHAT_BASE_URL: 'http://127.0.0.1:9/api' },
      },
    );
    const server = mcp;
    const logged = server.stderr().length;
    const heads = [
      'POST /mcp HTTP/1.1\r\nhost: a b',
      'POST /mcp HTTP/1.1\r\nhost: x:99999',
      'POST /mcp HTTP/1.1\r\nhost: [::1',
      `POST /mcp HTTP/1.1\r\nhost: ${'h'.repeat(8192)}.example`,
      'OPTIONS * HTTP/1.1\r\nhost: 127.0.0.1',
      'POST http://127.0.0.1:1/mcp HTTP/1.1\r\nhost: 127.0.0.1',
      'TRACE /mcp HTTP/1.1\r\nhost: 127.0.0.1',
    ];

    // Ten rounds: a client sending these at will must not get a line per request into the log.
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(heads.map((head) => rawExchange(server.url, head)));
      expect(answers.map((answer) => answer.status)).toEqual(heads.map(() => 400));
    }

    const lines = server.stderr().slice(logged).split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^agentchat-mcp: refused 1 malformed request .*one such line a minute$/,
    );
    expect(lines[0]?.length).toBeLessThan(200);
    // Still serving the well-formed.
    const health = await rawExchange(server.url, 'GET /health HTTP/1.1\r\nhost: 127.0.0.1');
    expect(health.status).toBe(200);
  });
});
