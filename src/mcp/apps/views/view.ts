/**
 * What both views share: the connection to the host through the extension's `App` class, the
 * host's theme applied, and elements made with their text as text (`textContent`), never as
 * markup, whatever the agent or a project's creator wrote.
 */
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { VERSION } from '../../../version.js';

/** The tool result a view is told of: the host's `ui/notifications/tool-result`. */
export type ToolResult = Parameters<NonNullable<App['ontoolresult']>>[0];

/** What a view does with what the host tells it. */
export interface ViewHandlers {
  /** The arguments the tool was called with. */
  input?(args: Record<string, unknown>): void;
  /** The tool's result. */
  result(result: ToolResult): void;
}

/**
 * Connects the view to its host and applies the host's theme (light or dark, its CSS
 * variables, its fonts), now and whenever the host changes it. Handlers are set before the
 * connection, as the host may send the tool's input and result right after it.
 */
export async function connectView(name: string, handlers: ViewHandlers): Promise<App> {
  const app = new App({ name: `agentchat-${name}`, version: VERSION });
  app.ontoolinput = ({ arguments: args }) => handlers.input?.(args ?? {});
  app.ontoolresult = (result) => handlers.result(result);
  app.onhostcontextchanged = applyTheme;
  await app.connect();
  const context = app.getHostContext();
  if (context) applyTheme(context);
  return app;
}

function applyTheme(context: McpUiHostContext): void {
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

/** An element with `text` as its text: never parsed as markup. */
export function element<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  className: string,
  text?: string,
): HTMLElementTagNameMap[Tag] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

/** The element views render into. */
export function root(): HTMLElement {
  const main = document.getElementById('view');
  if (main === null) throw new Error('The view document has no #view element.');
  return main;
}

/** A tool error's text, as the server wrote it (the error's message and request id). */
export function errorText(result: ToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** A plain object of the result's structured content, or `undefined`. */
export function structured(result: ToolResult): Record<string, unknown> | undefined {
  const content: unknown = result.structuredContent;
  return typeof content === 'object' && content !== null && !Array.isArray(content)
    ? (content as Record<string, unknown>)
    : undefined;
}
