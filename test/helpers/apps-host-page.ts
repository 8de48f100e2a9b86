/**
 * The page of the test host of MCP Apps (apps-host.ts), bundled for the browser: the official MCP
 * client connected to `agentchat-mcp --http`, and the extension's own host bridge (`AppBridge`)
 * showing a tool's view in a sandboxed iframe, as the extension's example hosts do. The MCP
 * endpoint is the page's own `/mcp`; its query says what to call: `tool`, `args` (JSON), `theme`
 * (light or dark) and `width` (the frame's, in CSS pixels).
 *
 * What the test reads, on `window.appsHost`: `ready` once the view has the tool's result, `calls`
 * (the tools/call requests the view made through the bridge), `errors`, and in the frame (same
 * origin, so the test can look inside) `window.cspViolations`.
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

const MIME = 'text/html;profile=mcp-app';

/** The default CSP the extension asks hosts to give a view that declares no domain. */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

/** The host's own look, which the view is told of as the extension's CSS variables. */
const THEMES = {
  light: {
    '--color-background-primary': '#fbfaf7',
    '--color-background-secondary': '#efece4',
    '--color-text-primary': '#1d1b16',
    '--color-text-secondary': '#5a564c',
    '--color-border-primary': '#cfc9ba',
    '--font-sans': 'system-ui, sans-serif',
  },
  dark: {
    '--color-background-primary': '#1f1e1b',
    '--color-background-secondary': '#2d2b27',
    '--color-text-primary': '#f2efe8',
    '--color-text-secondary': '#b4ae9f',
    '--color-border-primary': '#4a463e',
    '--font-sans': 'system-ui, sans-serif',
  },
} as const;

interface HostState {
  ready: boolean;
  calls: { name: string; arguments: unknown }[];
  errors: string[];
}

const state: HostState = { ready: false, calls: [], errors: [] };
(window as unknown as { appsHost: HostState }).appsHost = state;

async function main(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const theme = query.get('theme') === 'dark' ? 'dark' : 'light';
  const width = Number(query.get('width') ?? '640');
  const tool = query.get('tool') ?? '';
  const args = JSON.parse(query.get('args') ?? '{}') as Record<string, unknown>;
  document.documentElement.style.colorScheme = theme;
  document.body.style.background = THEMES[theme]['--color-background-primary'];

  const client = new Client(
    { name: 'agentchat-apps-test-host', version: '1.0.0' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  const listed = (await client.listTools()).tools.find((candidate) => candidate.name === tool);
  const uri = (listed?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (uri === undefined) throw new Error(`${tool} names no view`);
  const [resource] = (await client.readResource({ uri })).contents;
  const html = (resource as { text: string }).text;
  const result = await client.callTool({ name: tool, arguments: args });

  const frame = document.createElement('iframe');
  frame.title = tool;
  frame.sandbox.add('allow-scripts', 'allow-same-origin');
  frame.style.cssText = `display:block;border:0;width:${width}px;height:120px`;
  document.body.append(frame);
  const bridge = new AppBridge(
    client,
    { name: 'agentchat-apps-test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {} },
    {
      hostContext: {
        theme,
        styles: { variables: THEMES[theme] as never },
        displayMode: 'inline',
        containerDimensions: { width, maxHeight: 2000 },
        locale: 'en-US',
        timeZone: 'UTC',
      },
    },
  );
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.ceil(height)}px`;
  };
  bridge.oninitialized = () => {
    void (async () => {
      await bridge.sendToolInput({ arguments: args });
      await bridge.sendToolResult(result as never);
      state.ready = true;
    })().catch(fail);
  };
  const view = frame.contentWindow;
  if (view === null) throw new Error('the frame has no window');
  await bridge.connect(new PostMessageTransport(view, view));
  // Connected, the bridge sends the view's tools/call on to the server; the host records each
  // first, as a host that shows or asks about a view's calls would.
  const forward = bridge.oncalltool;
  if (forward === undefined) throw new Error('the bridge forwards no tools/call');
  bridge.oncalltool = (params, extra) => {
    state.calls.push({ name: params.name, arguments: params.arguments });
    return forward(params, extra);
  };
  // The host's CSP first, and a record of anything it blocks, before the view's own markup.
  const head =
    `<meta http-equiv="Content-Security-Policy" content="${DEFAULT_CSP}">` +
    '<script>window.cspViolations=[];document.addEventListener("securitypolicyviolation",' +
    '(e)=>window.cspViolations.push(e.violatedDirective+" "+e.blockedURI+" at "+e.lineNumber+":"+e.columnNumber))</script>';
  frame.srcdoc = html.replace('<head>', `<head>${head}`);
}

function fail(error: unknown): void {
  state.errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

main().catch(fail);
