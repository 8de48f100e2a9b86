// Type-checked by test/package/types.test.ts under each module setting a user may have, against
// the types of the installed tarball: the client, with either the DOM library or Node's types for
// fetch and Response. The `@ts-expect-error` lines prove the types are precise: were anything
// `any`, the expected error would not occur and the check would fail.
import {
  AgentChatError,
  type APIPromise,
  type ChatReply,
  Client,
  type CreatedProject,
  isAPIError,
  NotFoundError,
  type Project,
  RateLimitError,
  RequestValidationError,
  type WithResponse,
} from 'agentchat';

export async function usage(baseUrl: string): Promise<string> {
  const client = new Client({ apiKey: () => Promise.resolve('sk_test'), baseUrl, maxRetries: 1 });

  const pending: APIPromise<CreatedProject> = client.projects.create({
    name: 'Typed',
    agentId: 'agent_1',
    metadata: { team: 'docs' },
  });
  const created = await pending;
  const project: Project = await client.projects.get(created.id, { timeout: 5_000 });
  const reply: WithResponse<ChatReply> = await client.chat
    .send({ projectId: project.id, message: 'Hi' })
    .withResponse();
  const status: number = reply.response.status;

  // @ts-expect-error agentId is required
  await client.projects.create({ name: 'No agent' });
  // @ts-expect-error a project's name is a string
  const wrong: number = project.name;

  try {
    await client.projects.get('proj_missing');
  } catch (error) {
    if (error instanceof NotFoundError) return `${error.status} ${error.requestId ?? ''}`;
    if (error instanceof RateLimitError) return String(error.retryAfter);
    if (error instanceof RequestValidationError) return error.issues.map((i) => i.path).join();
    if (isAPIError(error)) return String(error.status);
    if (error instanceof AgentChatError) return error.message;
  }

  return `${reply.data.message} ${status} ${wrong}`;
}

/** Inputs as other libraries hand them out, and the mistakes the types catch; compiled, not run. */
export function inputs(
  client: Client,
  // The runtime's own HeadersInit, the DOM's or Node's (undici's, which Node's types do not name).
  headers: ConstructorParameters<typeof Headers>[0],
  signal: AbortSignal | null,
): void {
  // Whatever `new Headers()` takes, and what frameworks hand out for "no signal".
  void client.projects.get('proj_1', { headers, signal });
  new Client({ headers, baseUrl: 'https://host/api' });
  void client.projects.get('proj_1', { headers: { 'x-team': null } });
  interface TeamMetadata {
    team: string;
  }
  const metadata: TeamMetadata = { team: 'docs' };
  void client.projects.create({ name: 'Typed', agentId: 'agent_1', metadata });
  const raw: Promise<Response> = client.projects.get('proj_1').asResponse();
  void raw;
  void Client.NotFoundError;
  // @ts-expect-error a GET request has no body
  void client.request({ method: 'GET', path: '/v1/projects', body: { a: 1 } });
}
