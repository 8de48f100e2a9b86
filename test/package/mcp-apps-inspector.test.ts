/**
 * The MCP Inspector's web UI (the pinned 2.12) renders MCP Apps: its Apps tab lists the tools
 * that name a view and opens one, with arguments typed into its form, in its own sandbox (a proxy
 * page on an origin of its own, the view in an iframe inside it) through the extension's host
 * bridge. Against the packed `agentchat-mcp --http` and the packed mock, in Chromium: the chat
 * view shows the reply and its suggestions, a suggestion pressed reaches the mock through the
 * Inspector and its reply shows; the project view shows the card.
 */
import { type Browser, chromium, type Frame, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import { chromiumLaunchOptions } from '../../vitest.config.js';
import {
  chatMessages,
  NEXT_REPLY,
  newProject,
  SUGGESTIONS,
  startPackedMcp,
  startPackedMock,
} from '../helpers/apps-packed.js';
import type { McpHttpProcess } from '../helpers/mcp-http.js';
import {
  connectInInspector,
  type InspectorPage,
  type McpInspector,
  openInspector,
  startMcpInspector,
} from '../helpers/mcp-inspector.js';

let mock: MockServer;
let server: McpHttpProcess;
let inspector: McpInspector;
let browser: Browser;

beforeAll(async () => {
  mock = await startPackedMock();
  server = await startPackedMcp(mock);
  inspector = await startMcpInspector({ serverUrl: server.url });
  browser = await chromium.launch({ ...chromiumLaunchOptions, headless: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await inspector?.stop();
  await server?.stop();
  await mock?.close();
});

/** Opens the app of the tool titled `title` in the Apps tab, with `args` typed into its form. */
async function openApp(page: Page, title: string, args: Record<string, string>): Promise<void> {
  await page.getByText('Apps', { exact: true }).click();
  await page.locator('button[data-variant=listItem]').filter({ hasText: title }).click();
  for (const [field, value] of Object.entries(args)) {
    await page.getByRole('textbox', { name: field, exact: true }).fill(value);
  }
  await page.getByRole('button', { name: 'Open App' }).click();
}

/** The frame (inside the Inspector's sandbox) that holds the view, once it has drawn `selector`. */
async function viewFrame(page: Page, selector: string): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        for (const frame of page.frames()) {
          const drawn = await frame
            .evaluate((css) => document.querySelector(css) !== null, selector)
            .catch(() => false);
          if (drawn) found = frame;
        }
        return found !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found as Frame;
}

describe('the MCP Inspector web UI', { timeout: 180_000 }, () => {
  let inspectorPage: InspectorPage;
  beforeAll(async () => {
    inspectorPage = await openInspector(browser, inspector);
    // No authorization server: the toggle connects at once.
    await connectInInspector(inspectorPage, async () => undefined);
  });
  afterAll(() => inspectorPage?.close());

  it('opens the chat view: the reply, its suggestions, and one sent through the Inspector', async () => {
    const id = await newProject(mock, 'Support desk');
    const { page } = inspectorPage;
    await openApp(page, 'Send message to the project agent', { projectId: id, message: 'Hello' });
    const view = await viewFrame(page, 'button.suggestion');
    expect(await view.locator('button.suggestion').allTextContents()).toEqual(SUGGESTIONS);
    await view.locator('button.suggestion').first().click();
    await expect.poll(() => view.locator('.reply').allTextContents()).toContain(NEXT_REPLY);
    expect(chatMessages(mock, id)).toEqual([{ message: 'Hello' }, { message: SUGGESTIONS[0] }]);

    await openApp(page, 'Get project', { id });
    const card = await viewFrame(page, '.card');
    expect(await card.locator('.name').textContent()).toBe('Support desk');
  });
});
