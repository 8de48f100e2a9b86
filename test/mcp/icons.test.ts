/**
 * The icons of agentchat-mcp (SEP-973): the server's `serverInfo.icons` and each tool's `icons`,
 * read by the official MCP client over stdio and over Streamable HTTP from the bin, are a PNG that
 * decodes to the size it states and the SVG it was drawn from, both as data URIs; and
 * src/mcp/icons.ts holds exactly the files `npm run build:icons` made (docs/images/icon.*).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import {
  type Icon,
  type Client as McpClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTCHAT_ICONS } from '../../src/mcp/icons.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import { allToolNames, connectRecorded } from '../helpers/mcp-client.js';
import { type McpHttpProcess, startMcpHttp } from '../helpers/mcp-http.js';
import { tsxLoader } from '../helpers/run-process.js';

const API_KEY = 'sk_mcp_icons_5d0c2a';
const repo = fileURLToPath(new URL('../..', import.meta.url));
/** The bin from source, as `npx tsx src/mcp/bin.ts` would run it. */
const bin = [...tsxLoader, 'src/mcp/bin.ts'];

/** The media type and bytes of a base64 data URI; throws on anything else. */
function decodeDataUri(src: string): { mimeType: string; bytes: Buffer } {
  const match = /^data:([\w.+/-]+);base64,([A-Za-z0-9+/]+={0,2})$/.exec(src);
  if (!match?.[1] || !match[2]) throw new Error(`not a base64 data URI: ${src.slice(0, 40)}`);
  return { mimeType: match[1], bytes: Buffer.from(match[2], 'base64') };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The width and height a PNG's header states, once its signature, its first chunk (IHDR, 13
 * bytes, as the PNG specification requires) and that chunk's CRC are checked.
 */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  expect(bytes.readUInt32BE(8)).toBe(13);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  expect(crc32(bytes.subarray(12, 29))).toBe(bytes.readUInt32BE(29));
  // The last chunk is IEND: the file is whole.
  expect(bytes.toString('latin1', bytes.length - 8, bytes.length - 4)).toBe('IEND');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** Checks `icons` as SEP-973 asks: a PNG of its stated size first, then the SVG. */
async function expectProjectIcons(icons: Icon[] | undefined): Promise<void> {
  expect(icons?.map(({ mimeType, sizes }) => ({ mimeType, sizes }))).toEqual([
    { mimeType: 'image/png', sizes: ['64x64'] },
    { mimeType: 'image/svg+xml', sizes: ['any'] },
  ]);
  const [png, svg] = (icons ?? []).map((icon) => ({ ...icon, ...decodeDataUri(icon.src) }));
  expect(png?.mimeType).toBe('image/png');
  expect(pngSize(png?.bytes ?? Buffer.alloc(0))).toBe(png?.sizes?.[0]);
  expect(svg?.mimeType).toBe('image/svg+xml');
  const drawing = svg?.bytes.toString('utf8') ?? '';
  expect(drawing).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 128 128"/);
  expect(drawing.trimEnd()).toMatch(/<\/svg>$/);
  // Hosts are told to take care with SVG: this one runs nothing and loads nothing.
  expect(drawing).not.toMatch(/<script|\bon\w+=|href=|url\((?!#)/i);
}

let service: MockServer;
beforeAll(async () => {
  service = await startMockServer({ apiKeys: [API_KEY] });
});
afterAll(() => service?.close());

describe('src/mcp/icons.ts', () => {
  it('holds the files npm run build:icons made, byte for byte', async () => {
    const [png, svg] = AGENTCHAT_ICONS.map((icon) => decodeDataUri(icon.src).bytes);
    expect(png).toEqual(await readFile(new URL('../../docs/images/icon.png', import.meta.url)));
    expect(svg).toEqual(await readFile(new URL('../../docs/images/icon.svg', import.meta.url)));
    await expectProjectIcons([...AGENTCHAT_ICONS]);
  });

  it('decodes, both of them, as images in Chromium, the PNG at its stated size', async () => {
    const browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
    try {
      const page = await browser.newPage();
      const decoded = await page.evaluate(
        (sources) =>
          Promise.all(
            sources.map(async (src) => {
              const image = new Image();
              image.src = src;
              // Rejects when the bytes are not an image the browser can show.
              await image.decode();
              return `${image.naturalWidth}x${image.naturalHeight}`;
            }),
          ),
        AGENTCHAT_ICONS.map((icon) => icon.src),
      );
      // The SVG's own width and height, 128 by 128; it scales to any size (`sizes: ['any']`).
      expect(decoded).toEqual([AGENTCHAT_ICONS[0]?.sizes?.[0], '128x128']);
    } finally {
      await browser.close();
    }
  });
});

/** What a host reads: the server's icons, and each tool's by name. */
async function iconsSeenBy(mcp: McpClient) {
  const { tools } = await mcp.listTools();
  return {
    server: mcp.getServerVersion()?.icons,
    tools: Object.fromEntries(tools.map((tool) => [tool.name, tool.icons])),
  };
}

describe('agentchat-mcp over stdio', { timeout: 30_000 }, () => {
  let mcp: McpClient;
  beforeAll(async () => {
    ({ mcp } = await connectRecorded(
      new StdioClientTransport({
        command: process.execPath,
        args: bin,
        cwd: repo,
        env: { AGENTCHAT_API_KEY: API_KEY, AGENTCHAT_BASE_URL: service.baseUrl },
      }),
    ));
  }, 30_000);
  afterAll(() => mcp?.close());

  it('names its icons in initialize and on each tool in tools/list', async () => {
    const seen = await iconsSeenBy(mcp);
    await expectProjectIcons(seen.server);
    expect(Object.keys(seen.tools).sort()).toEqual(allToolNames);
    for (const icons of Object.values(seen.tools)) await expectProjectIcons(icons);
  });
});

describe('agentchat-mcp --http', { timeout: 30_000 }, () => {
  let server: McpHttpProcess;
  let mcp: McpClient;
  beforeAll(async () => {
    server = await startMcpHttp(process.execPath, [...bin, '--http', '--port', '0'], {
      cwd: repo,
      env: { PATH: process.env.PATH, AGENTCHAT_BASE_URL: service.baseUrl },
    });
    ({ mcp } = await connectRecorded(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
      }),
    ));
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  it('names its icons to the host and on each tool in tools/list', async () => {
    const seen = await iconsSeenBy(mcp);
    await expectProjectIcons(seen.server);
    expect(Object.keys(seen.tools).sort()).toEqual(allToolNames);
    for (const icons of Object.values(seen.tools)) await expectProjectIcons(icons);
  });
});
