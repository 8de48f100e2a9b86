// The app the end-to-end recipe of docs/testing.md drives: a project page that shows the
// project's name and chats with its agent. Its backend is the base URL its page was served with,
// as a dev server would inject its configuration.
import { Client } from 'agentchat';

const client = new Client({
  apiKey: 'sk_test',
  baseUrl: window.AGENTCHAT_BASE_URL,
  dangerouslyAllowBrowser: true,
});
const projectId = location.pathname.split('/').at(-1);

const heading = document.createElement('h1');
const form = document.createElement('form');
form.innerHTML = '<input name="message"><button type="submit">Send</button>';
const reply = document.createElement('p');
reply.className = 'reply';
document.body.append(heading, form, reply);

client.projects.get(projectId).then(
  (project) => {
    heading.textContent = project.name;
  },
  (error) => {
    heading.textContent = `Error: ${error.message}`;
  },
);

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = new FormData(form).get('message');
  const answer = await client.chat.send({ projectId, message: String(message) });
  reply.textContent = answer.message;
});
