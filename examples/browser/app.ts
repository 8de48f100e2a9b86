/**
 * The page's code, bundled by build.ts into dist/app.js. It uses agentchat in the browser
 * without ever holding the API key: every call goes to this site's own backend (backend.ts),
 * which checks the visitor's session and adds the key on the way to the service.
 */
import { AgentChatError, Client } from 'agentchat';

const client = new Client({
  // The backend's pass-through route, on the page's own origin: cookies go along, no CORS.
  baseUrl: new URL('/agentchat', window.location.origin).href,
  // Not a secret: the backend drops it and sends the real key. The client requires a value.
  apiKey: 'set-by-backend',
  // Safe here precisely because the page holds no secret (see docs/browsers.md).
  dangerouslyAllowBrowser: true,
});

const form = element<HTMLFormElement>('ask');
const input = element<HTMLInputElement>('message');
const log = element<HTMLDivElement>('log');
const suggestions = element<HTMLDivElement>('suggestions');

// One project per page visit, created on the first question.
let projectId: Promise<string> | undefined;

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const message = input.value.trim();
  if (message) void ask(message);
});

async function ask(message: string): Promise<void> {
  input.value = '';
  say('you', message);
  try {
    projectId ??= client.projects
      .create({ name: 'Website visitor', agentId: 'agent_support' })
      .then((project) => project.id);
    const reply = await client.chat.send({ projectId: await projectId, message });
    say('agent', reply.message);
    showSuggestions(reply.suggestions.filter((s): s is string => typeof s === 'string'));
  } catch (error) {
    projectId = undefined; // start afresh on the next question
    // Every failure is an AgentChatError whose message says what happened.
    say('error', error instanceof AgentChatError ? error.message : String(error));
  }
}

function say(who: 'you' | 'agent' | 'error', text: string): void {
  const line = document.createElement('p');
  line.className = who;
  line.textContent = text; // text, never HTML: the reply is not trusted markup
  log.append(line);
}

function showSuggestions(items: string[]): void {
  suggestions.replaceChildren(
    ...items.map((text) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = text;
      button.addEventListener('click', () => void ask(text));
      return button;
    }),
  );
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`index.html has no #${id}`);
  return found as T;
}
