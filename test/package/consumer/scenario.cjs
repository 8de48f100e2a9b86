/**
 * The end-to-end scenario every runtime runs against the mock HTTP server: create a project, read
 * it back, chat, then one API error and one input error, each checked with `instanceof`.
 *
 * It takes the package as an argument rather than importing it, so that one file serves ESM and
 * CJS hosts alike, and returns plain values that the test compares with what it expects.
 *
 * @param {typeof import('agentchat')} sdk the package, as the host loaded it
 * @param {string} baseUrl the mock server's base URL
 * @param {string} runtime a label stored in the project's metadata, so the test can tell runs apart
 * @param {import('agentchat').ClientOptions} [options] more client options, for browsers
 */
async function runScenario(sdk, baseUrl, runtime, options = {}) {
  const client = new sdk.Client({ apiKey: 'sk_test_package', baseUrl, maxRetries: 0, ...options });

  const created = await client.projects.create({
    name: `Runtime check (${runtime})`,
    agentId: 'agent_runtime',
    metadata: { runtime },
  });
  const project = await client.projects.get(created.id);
  const reply = await client.chat.send({ projectId: created.id, message: 'Hello there' });

  const notFound = await client.projects.get('proj_does_not_exist').then(
    () => undefined,
    (error) => error,
  );
  const invalid = await client.projects.create({ name: '', agentId: 'agent_runtime' }).then(
    () => undefined,
    (error) => error,
  );

  return {
    created: { status: created.status, idPrefix: created.id.slice(0, 5) },
    project: {
      sameId: project.id === created.id,
      name: project.name,
      agentId: project.agentId,
      metadata: project.metadata,
    },
    reply: { message: reply.message, suggestionCount: reply.suggestions.length },
    notFound: {
      name: notFound?.name,
      status: notFound?.status,
      isNotFoundError: notFound instanceof sdk.NotFoundError,
      isAPIError: notFound instanceof sdk.APIError,
      isAgentChatError: notFound instanceof sdk.AgentChatError,
      isRateLimitError: notFound instanceof sdk.RateLimitError,
    },
    invalid: {
      name: invalid?.name,
      isRequestValidationError: invalid instanceof sdk.RequestValidationError,
      isAgentChatError: invalid instanceof sdk.AgentChatError,
      isAPIError: invalid instanceof sdk.APIError,
      fields: invalid?.issues?.map((issue) => issue.path),
    },
  };
}

module.exports = { runScenario };
