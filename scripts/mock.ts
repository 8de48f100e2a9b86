// `npm run mock`: the mock service on a real port, for curl, other languages and manual checks.
import { startMockServer } from '../src/testing/index.js';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}

const server = await startMockServer({ port });
const { baseUrl } = server;

console.log(`agentchat mock service listening on ${baseUrl}
Any non-empty API key is accepted. Try:

  curl -s ${baseUrl}/v1/projects \\
    -H 'Authorization: Bearer sk_test' \\
    -H 'Content-Type: application/json' \\
    -d '{"name":"Demo","agentId":"agent_support"}'

Then GET ${baseUrl}/v1/projects/<id> and POST ${baseUrl}/v1/projects/<id>/chat {"message":"Hello"}.
Ctrl+C stops it.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => {
      console.log('mock service stopped');
      process.exit(0);
    });
  });
}
