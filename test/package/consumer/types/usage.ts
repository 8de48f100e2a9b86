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
