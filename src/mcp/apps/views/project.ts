/**
 * `ui://agentchat/project.html`, the view of `create_project` and `get_project`: the project as
 * a card (name, id, status, agent, created time, metadata). `create_project`'s result has no
 * agent or metadata: those come from the tool's input.
 */
import { connectView, element, errorText, structured, type ToolResult } from './view.js';

/** A field shown only when it is text. */
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Draws the project into `card` once the host tells it of the tool's result. */
export function showProject(card: HTMLElement): void {
  card.append(element('p', 'waiting', 'Waiting for the project…'));
  let input: Record<string, unknown> = {};

  const show = (result: ToolResult): void => {
    card.replaceChildren();
    const project = structured(result);
    if (result.isError || project === undefined) {
      card.append(element('p', 'error', errorText(result) || 'No project came back.'));
      return;
    }
    const article = element('article', 'card');
    article.append(element('h1', 'name', text(project.name) ?? 'Unnamed project'));
    const fields = element('dl', 'fields');
    const field = (label: string, value: Node | string | undefined) => {
      if (value === undefined) return;
      const cell = element('dd', '');
      cell.append(value);
      fields.append(element('dt', '', label), cell);
    };
    field('Id', text(project.id));
    field('Status', text(project.status));
    field('Agent', text(project.agentId) ?? text(input.agentId));
    field('Created', createdTime(text(project.createdAt)));
    const metadata = project.metadata ?? input.metadata;
    if (metadata !== undefined) {
      field('Metadata', element('pre', 'metadata', JSON.stringify(metadata, null, 2)));
    }
    article.append(fields);
    card.append(article);
  };

  void connectView('project', {
    input: (args) => {
      input = args;
    },
    result: show,
  });
}

/** The creation time in the reader's own format, the service's timestamp kept as its value. */
function createdTime(iso: string | undefined): HTMLElement | undefined {
  if (iso === undefined) return undefined;
  const time = element('time', '');
  time.dateTime = iso;
  time.title = iso;
  const date = new Date(iso);
  time.textContent = Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return time;
}
