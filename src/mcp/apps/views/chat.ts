/**
 * `ui://agentchat/chat.html`, the view of `send_message`: the agent's reply, and its suggestions
 * as buttons. Pressing one sends it to the same project through the host (`tools/call` of
 * `send_message`, which the host may show or ask about) and shows the next reply below.
 *
 * A button sends exactly the text it shows: a suggestion's hidden characters (Unicode tags, bidi
 * controls, zero-width and other format characters: src/internal/hidden-characters.ts) are
 * dropped from both, so that no suggestion carries words the person cannot see, or draws one word
 * and sends another. An emoji joined by a zero-width joiner shows, and is sent, as its parts.
 *
 * The buttons are bounded, as the project card is: a follow-up is a line or two, and a reply
 * suggesting a book, or a thousand follow-ups, must not bury the conversation under them. What is
 * left out is said below the buttons; the tool's result keeps every suggestion.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import { withoutHiddenCharacters } from '../../../internal/hidden-characters.js';
import { connectView, element, errorText, structured, type ToolResult } from './view.js';

/**
 * A suggestion as the person reads it and as it is sent, one string: its text (or its JSON)
 * without hidden characters and outer spaces; empty when nothing visible is left.
 */
const suggestionText = (suggestion: unknown): string =>
  withoutHiddenCharacters(
    typeof suggestion === 'string' ? suggestion : (JSON.stringify(suggestion) ?? ''),
  ).trim();

/** The most suggestions drawn as buttons, and the longest text one may show (UTF-16 units). */
const MAX_BUTTONS = 10;
const MAX_BUTTON_TEXT = 500;

/** Draws the conversation into `conversation` as the host tells it of the tool's call. */
export function showChat(conversation: HTMLElement): void {
  const waiting = element('p', 'waiting', 'Waiting for the agent…');
  conversation.append(waiting);
  /** The project the conversation is with, from the tool's input. */
  let projectId: string | undefined;
  let app: App | undefined;

  /** One turn of the agent: its reply, then its suggestions as buttons; or the error. */
  const showTurn = (result: ToolResult): void => {
    waiting.remove();
    const turn = element('section', 'turn');
    const reply = structured(result);
    if (result.isError || typeof reply?.message !== 'string') {
      turn.append(element('p', 'error', errorText(result) || 'The agent sent no reply.'));
      conversation.append(turn);
      return;
    }
    turn.append(element('p', 'reply', reply.message));
    const suggestions = (Array.isArray(reply.suggestions) ? reply.suggestions : [])
      .map(suggestionText)
      .filter((text) => text !== '');
    const fitting = suggestions.filter((text) => text.length <= MAX_BUTTON_TEXT);
    const drawn = fitting.slice(0, MAX_BUTTONS);
    if (drawn.length > 0) {
      const group = element('div', 'suggestions');
      group.setAttribute('role', 'group');
      group.setAttribute('aria-label', 'Suggested follow-ups');
      for (const text of drawn) {
        const button = element('button', 'suggestion', text);
        button.type = 'button';
        button.disabled = projectId === undefined;
        button.addEventListener('click', () => void follow(text, group));
        group.append(button);
      }
      turn.append(group);
    }
    const notShown = leftOutNote(
      suggestions.length - fitting.length,
      fitting.length - drawn.length,
    );
    if (notShown) turn.append(element('p', 'suggestions-note', notShown));
    conversation.append(turn);
  };

  /** Sends a suggestion to the project through the host, and shows the reply below it. */
  const follow = async (message: string, group: HTMLElement): Promise<void> => {
    if (app === undefined || projectId === undefined) return;
    const buttons = [...group.querySelectorAll('button')];
    for (const button of buttons) button.disabled = true;
    conversation.append(element('p', 'sent', message));
    try {
      showTurn(
        await app.callServerTool({ name: 'send_message', arguments: { projectId, message } }),
      );
    } catch (error) {
      // The host refused or lost the call: said as it said it, and the person may try again.
      conversation.append(
        element('p', 'error', error instanceof Error ? error.message : 'The host did not send it.'),
      );
      for (const button of buttons) button.disabled = false;
    }
  };

  void connectView('chat', {
    input: (args) => {
      if (typeof args.projectId === 'string') projectId = args.projectId;
      if (typeof args.message === 'string') waiting.before(element('p', 'sent', args.message));
    },
    result: showTurn,
  }).then((connected) => {
    app = connected;
  });
}

/**
 * The line under the buttons saying which suggestions have none, or `''` when all have one.
 *
 * @example
 * ```ts
 * leftOutNote(1, 21);
 * // '1 suggestion over 500 characters and 21 past the first 10 not shown as buttons. …'
 * ```
 */
function leftOutNote(tooLong: number, tooMany: number): string {
  const parts: string[] = [];
  if (tooLong > 0) {
    parts.push(`${suggestionCount(tooLong)} over ${MAX_BUTTON_TEXT} characters`);
  }
  if (tooMany > 0) {
    parts.push(
      `${tooLong > 0 ? tooMany.toLocaleString('en') : suggestionCount(tooMany)} past the first ${MAX_BUTTONS}`,
    );
  }
  if (parts.length === 0) return '';
  return `${parts.join(' and ')} not shown as buttons. Every suggestion is in the tool's result.`;
}

/** `1 suggestion`, `1,200 suggestions`. */
const suggestionCount = (count: number): string =>
  `${count.toLocaleString('en')} suggestion${count === 1 ? '' : 's'}`;
