/**
 * The stdio face of `agentchat-mcp`: one MCP server for the host that started the process, on its
 * standard input and output.
 */
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Client } from '../index.js';
import type { McpToolScope } from './scope.js';
import { createMcpServer } from './server.js';

/**
 * The most unread input the transport holds at once, so in practice the largest message a host may
 * send: the MCP SDK's default, stated here so that the bin can name it.
 */
const STDIO_MESSAGE_LIMIT = 10 * 1024 * 1024;

/** What the MCP SDK's stdio transport reports, and then closes, when a message is over the limit. */
const OVER_LIMIT = `ReadBuffer exceeded maximum size of ${STDIO_MESSAGE_LIMIT} bytes`;

/**
 * Said on standard error when a person starts the bin in a terminal, where it would otherwise wait
 * in silence: hosts start it with pipes, never a terminal.
 */
const TERMINAL_NOTICE =
  'agentchat-mcp: an MCP server on stdio, for an MCP host (Claude Desktop, an IDE) to start; it is waiting for one on standard input. Ctrl+C quits; agentchat-mcp --help shows how hosts run it.\n';

/**
 * Serves the tools in `scope` over `client` on stdio, with their MCP Apps views unless `apps`
 * is false, until the host closes the pipe. A message over the size limit ends the process with
 * exit status 1 and one line on standard error, which never quotes the message.
 */
export function serveOnStdio(client: Client, scope: McpToolScope, apps: boolean): void {
  // Made once here, so that a bad scope stops the bin before the host connects.
  createMcpServer({ client, ...scope, apps });
  if (process.stdin.isTTY) process.stderr.write(TERMINAL_NOTICE);
  serveStdio(() => createMcpServer({ client, ...scope, apps }), {
    transport: new StdioServerTransport(process.stdin, process.stdout, {
      maxBufferSize: STDIO_MESSAGE_LIMIT,
    }),
    onerror: (error) => {
      if (error.message !== OVER_LIMIT) {
        process.stderr.write(`agentchat-mcp: ${error.message}\n`);
        return;
      }
      // The transport has stopped reading: the host's next messages would go unanswered.
      process.stderr.write(
        `agentchat-mcp: a message from the host was over ${STDIO_MESSAGE_LIMIT / 1024 / 1024} MiB, the most one stdio message may take; stopping.\n`,
      );
      process.exitCode = 1;
    },
  });
}
