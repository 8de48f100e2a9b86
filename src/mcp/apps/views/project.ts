/**
 * `ui://agentchat/project.html`, the view of `create_project` and `get_project`: the project as
 * a card (name, id, status, agent, created time, metadata). `create_project`'s result has no
 * agent or metadata: those come from the tool's input. The metadata is drawn within bounds
 * (metadata.ts), saying what it left out; the tool's result keeps all of it.
 */
import { drawMetadata } from './metadata.js';
import { connectView, element, errorText, structured, type ToolResult } from './view.js';

/** A field shown only when it is text. */
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Draws the project into `card` once the host tells it of the tool's result. */
export function showProject(card: HTMLElement): void {
  card.append(element('p', 'waiting', 'Waiting for the project…'));
  let input: Record<string, unknown> = {};

  const show = (result: ToolResult): void => {
    // How long drawing took, for anyone profiling the view (the browser's User Timing).
    const started = performance.now();
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
    if (metadata !== undefined) field('Metadata', metadataCell(metadata));
    article.append(fields);
    card.append(article);
    performance.measure('agentchat:project-card', { start: started });
  };

  void connectView('project', {
    input: (args) => {
      input = args;
    },
    result: show,
  });
}

/** The metadata as drawn, and, when it was cut, a line saying so and where the rest is. */
function metadataCell(metadata: unknown): Node {
  const drawn = drawMetadata(metadata);
  const pre = element('pre', 'metadata', drawn.text);
  if (!drawn.cut) return pre;
  const cell = document.createDocumentFragment();
  const leftOut =
    drawn.leftOut > 0
      ? `${drawn.leftOut.toLocaleString('en')} ${drawn.leftOut === 1 ? 'key or item' : 'keys and items'} not shown`
      : 'Long texts cut';
  cell.append(
    pre,
    element(
      'p',
      'metadata-note',
      `Part of the metadata: ${leftOut}. The whole value is in the tool's result.`,
    ),
  );
  return cell;
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
