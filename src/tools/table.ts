/**
 * The service's three operations as tools for AI agents, in no framework's terms: what the MCP
 * server (src/mcp/) and the agent frameworks' entries (src/ai-sdk/, src/openai-agents/,
 * src/langchain/, src/mastra/) each adapt to their own tool shape. Nothing here imports a
 * framework, so that each entry carries only its own.
 */
import type {
  ChatReply,
  ChatSendParams,
  Client,
  CreatedProject,
  Project,
  ProjectCreateParams,
} from '../index.js';
import {
  chatReplySchema,
  chatSendParamsSchema,
  createdProjectSchema,
  projectCreateParamsSchema,
  projectIdSchema,
  projectSchema,
} from '../schemas.js';
import { type ToolSchema, toolSchema } from './schema.js';

/** What the tools call: a client's operations (a {@link Client}, or one with another key). */
export type Operations = Pick<Client, 'projects' | 'chat'>;

/**
 * What a model is told of a tool's effects, in MCP's terms (its `ToolAnnotations`), which the
 * frameworks' entries read too: `readOnlyHint` is what `readOnly` selects by.
 */
export interface ToolHints {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * One tool over one client operation. The name, title, description and annotations are what a
 * model reads when it chooses a tool; the schemas are the SDK's own.
 */
export interface AgentChatTool<Input, Output extends object> {
  readonly name: string;
  readonly title: string;
  /** What the tool does, what it returns and when to use it, for the model choosing tools. */
  readonly description: string;
  readonly annotations: ToolHints;
  readonly inputSchema: ToolSchema<Input>;
  readonly outputSchema: ToolSchema<Output>;
  /** Runs the operation; `signal` fires when the agent's host or framework cancels the call. */
  call(client: Operations, input: Input, signal: AbortSignal | undefined): Promise<Output>;
  /** A short text of the result, for hosts and models that read only text. */
  summarize(output: Output): string;
}

/**
 * Checks the operations the tools call rather than `instanceof Client`, so that a client from
 * another copy of the package (its ESM and CJS builds) works too.
 */
export function isClientLike(value: unknown): value is Client {
  const candidate = value as Partial<Client> | null | undefined;
  return (
    typeof candidate?.projects?.create === 'function' &&
    typeof candidate.projects.get === 'function' &&
    typeof candidate.chat?.send === 'function'
  );
}

const PROJECT_ID = 'The project id, proj_<id>, as create_project returned it.';

// Each tool below is `as const`: its name and its `readOnlyHint` keep their literal types, from
// which scope.ts derives the tool names a scope may list (ToolName, ReadOnlyToolName).

const projectFields = {
  id: { description: 'The project id, proj_<id>: pass it to get_project and send_message.' },
  name: { description: 'The project name.' },
  status: { description: '"active" for a new project; the service may add other states.' },
  createdAt: { description: 'When the project was created, an ISO 8601 UTC timestamp.' },
};

export const createProject = {
  name: 'create_project',
  title: 'Create project',
  description:
    'Creates a new project in the Project and Agent Chat service, bound to one AI agent. ' +
    'Returns the new project: id (proj_<id>), name, status ("active") and createdAt. ' +
    'Use it when the user wants a new project; then chat with its agent through send_message. ' +
    'Every call creates another project, so do not call it again to look a project up or after ' +
    'an error that says the request reached the service: use get_project with the id instead.',
  annotations: {
    title: 'Create project',
    readOnlyHint: false,
    destructiveHint: false,
    // Each call makes a project of its own. (Retries inside one call are safe: they share one
    // Idempotency-Key, so the service creates the project once.)
    idempotentHint: false,
    openWorldHint: false,
  },
  inputSchema: toolSchema(projectCreateParamsSchema, {
    name: { description: 'A human-readable name for the project, such as "Customer support".' },
    agentId: {
      description:
        'The id of the AI agent to bind the project to, such as "agent_support". These tools ' +
        'cannot list agents: ask the user for it if you do not know it.',
    },
    metadata: {
      type: 'object',
      description:
        'Optional. Any JSON object to keep with the project, such as ' +
        '{"launchDate": "2026-12-01", "tier": 2}.',
    },
  }),
  outputSchema: toolSchema(createdProjectSchema, projectFields),
  call: (client, input, signal) => client.projects.create(input, { signal }),
  summarize: (project) =>
    `Created project ${project.id} named ${JSON.stringify(project.name)} (status ${project.status}, ` +
    `created ${project.createdAt}).`,
} as const satisfies AgentChatTool<ProjectCreateParams, CreatedProject>;

export const getProject = {
  name: 'get_project',
  title: 'Get project',
  description:
    'Reads one project by its id. Returns id, name, agentId (the AI agent bound to it), status, ' +
    'metadata (the JSON object given at creation, {} if none) and createdAt. Read-only. Use it to ' +
    'check that a project exists, which agent it is bound to or what its metadata holds. An ' +
    'unknown id gives an error that says the project was not found.',
  annotations: {
    title: 'Get project',
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  inputSchema: toolSchema(projectIdSchema, { id: { description: PROJECT_ID } }),
  outputSchema: toolSchema(projectSchema, {
    ...projectFields,
    agentId: { description: 'The id of the AI agent the project is bound to.' },
    metadata: {
      type: 'object',
      description: 'The JSON object given when the project was created; {} when none was.',
    },
  }),
  call: (client, { id }, signal) => client.projects.get(id, { signal }),
  summarize: (project) =>
    `Project ${project.id} named ${JSON.stringify(project.name)}: agent ${project.agentId}, ` +
    `status ${project.status}, created ${project.createdAt}, metadata ${JSON.stringify(project.metadata)}.`,
} as const satisfies AgentChatTool<{ id: string }, Project>;

export const sendMessage = {
  name: 'send_message',
  title: 'Send message to the project agent',
  description:
    "Sends a text message to the AI agent of a project and returns the agent's answer: message " +
    '(the reply text) and suggestions (follow-up prompts the agent proposes). Use it to ask the ' +
    "project's agent something, or to pass on what the user says to it. Needs the project id from " +
    'create_project or get_project. Each call sends one more message, and the same message sent ' +
    'twice may get different replies.',
  annotations: {
    title: 'Send message to the project agent',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    // The reply is written by another AI agent: content from outside this conversation.
    openWorldHint: true,
  },
  inputSchema: toolSchema(chatSendParamsSchema, {
    projectId: {
      description: 'The id of the project whose agent receives the message, proj_<id>.',
    },
    message: { description: 'The text to send to the agent.' },
  }),
  outputSchema: toolSchema(chatReplySchema, {
    message: { description: "The agent's reply." },
    suggestions: {
      type: 'array',
      description:
        'Follow-up prompts the agent proposes: offer them to the user, or send one next.',
    },
  }),
  call: (client, input, signal) => client.chat.send(input, { signal }),
  summarize: (reply) => {
    if (reply.suggestions.length === 0) return reply.message;
    const suggestions = reply.suggestions.map(
      (suggestion) =>
        `- ${typeof suggestion === 'string' ? suggestion : JSON.stringify(suggestion)}`,
    );
    return `${reply.message}\n\nSuggested follow-ups:\n${suggestions.join('\n')}`;
  },
} as const satisfies AgentChatTool<ChatSendParams, ChatReply>;
