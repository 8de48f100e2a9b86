/**
 * The MCP Apps views (the `io.modelcontextprotocol/ui` extension): which views there are, the
 * `ui://` resource each is read at, and the tools whose results each one shows. A host that
 * renders MCP Apps reads the view a tool names (`_meta.ui.resourceUri`) and shows that tool's
 * result in it; every other host ignores both and keeps the tool's text and structured content.
 */

/** Each view: its resource, the name and description hosts list it by, the tools it shows. */
export const VIEWS = {
  chat: {
    uri: 'ui://agentchat/chat.html',
    title: 'Chat with the project agent',
    description:
      "The agent's reply, and its suggestions as buttons: pressing one sends it to the same project.",
    tools: ['send_message'],
  },
  project: {
    uri: 'ui://agentchat/project.html',
    title: 'Project',
    description: 'A project as a card: name, id, status, agent, created time and metadata.',
    tools: ['create_project', 'get_project'],
  },
} as const satisfies Record<string, ViewEntry>;

interface ViewEntry {
  readonly uri: `ui://agentchat/${string}.html`;
  readonly title: string;
  readonly description: string;
  readonly tools: readonly string[];
}

/** A view's name: `chat` or `project`. */
export type ViewName = keyof typeof VIEWS;

export const VIEW_NAMES = Object.keys(VIEWS) as ViewName[];

/** The view that shows `tool`'s results, if any. */
export function viewOf(tool: string): ViewName | undefined {
  return VIEW_NAMES.find((view) => (VIEWS[view].tools as readonly string[]).includes(tool));
}
