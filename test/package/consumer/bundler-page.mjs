// What every bundler's page does (bundler-app.mjs and bundler-app.cjs take the package each its
// own way): the three operations against the mock whose base URL it reads from `?baseUrl=`, one
// API error, and its findings left on `window.agentchatResult` for the test.
export function runPage({ Client, NotFoundError }) {
  const baseUrl = new URLSearchParams(location.search).get('baseUrl');
  const client = new Client({ apiKey: 'sk_test_package', baseUrl, dangerouslyAllowBrowser: true });
  const run = async () => {
    const created = await client.projects.create({ name: 'Bundled', agentId: 'agent_web' });
    const project = await client.projects.get(created.id);
    const reply = await client.chat.send({ projectId: project.id, message: 'Hello' });
    const missing = await client.projects.get('proj_missing').catch((error) => error);
    return {
      name: project.name,
      reply: reply.message,
      missing: { isNotFoundError: missing instanceof NotFoundError, status: missing.status },
    };
  };
  run().then(
    (result) => {
      window.agentchatResult = result;
    },
    (error) => {
      window.agentchatResult = { error: String(error?.stack ?? error) };
    },
  );
}
