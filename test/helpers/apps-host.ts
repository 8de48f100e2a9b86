/**
 * A host of MCP Apps for the tests, made of the extension's own parts (apps-host-page.ts): a page
 * on 127.0.0.1 whose script, bundled once by esbuild, connects the official MCP client to an
 * `agentchat-mcp --http` and shows a tool's view through the extension's `AppBridge` in a
 * sandboxed iframe. As a web host's backend does, the host's own server passes the page's MCP
 * requests (`/mcp`, same origin) on to the MCP server; it records every request the page and its
 * frame make of it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The test host's web server. */
export interface AppsHost {
  /** The page's URL showing `tool`'s view, called with `args`, in `theme`, `width` px wide. */
  pageUrl(view: {
    tool: string;
    args: Record<string, unknown>;
    theme: 'light' | 'dark';
    width: number;
  }): string;
  /** The paths requested of the host's server so far. */
  requests(): string[];
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>body{margin:0}</style></head>
<body><script src="/host.js"></script></body></html>`;

/** The MCP headers the host's server passes on, each way. */
const MCP_HEADERS = ['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version'];

/** Passes one MCP request on to `mcp`, and its answer back, streamed. */
async function forward(mcp: string, request: IncomingMessage, response: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(
    MCP_HEADERS.flatMap((name) => {
      const value = request.headers[name];
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );
  const method = request.method ?? 'GET';
  const answer = await fetch(mcp, {
    method,
    headers,
    ...(method === 'POST' && { body: Buffer.concat(chunks) }),
  });
  response.writeHead(
    answer.status,
    Object.fromEntries(
      MCP_HEADERS.flatMap((name) => {
        const value = answer.headers.get(name);
        return value === null ? [] : [[name, value]];
      }),
    ),
  );
  if (answer.body === null) response.end();
  else Readable.fromWeb(answer.body as ReadableStream).pipe(response);
}

/**
 * Bundles the page's script and serves it with the page on a free port of 127.0.0.1, passing
 * `/mcp` on to `mcp`, the MCP server's endpoint.
 */
export async function startAppsHost(mcp: string): Promise<AppsHost> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./apps-host-page.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]?.text ?? '';
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push(path);
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    } else if (path === '/host.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else if (path === '/mcp') {
      forward(mcp, request, response).catch(() => response.destroy());
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    pageUrl: ({ tool, args, theme, width }) => {
      const query = new URLSearchParams({
        tool,
        args: JSON.stringify(args),
        theme,
        width: String(width),
      });
      return `http://127.0.0.1:${port}/?${query}`;
    },
    requests: () => [...seen],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
