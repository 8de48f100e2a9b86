// Workload identity federation host: `<runtime> workload-identity.mjs <esm|cjs> <settings JSON>`
// loads the package by `import` or `require`, trades the platform's identity token from each
// source (a file, the GitHub Actions runner, the metadata server) at the authorization server,
// calls the service with the token, has an untrusted token refused, and prints one JSON line.
import { createRequire } from 'node:module';

const [build, json] = process.argv.slice(2);
const settings = JSON.parse(json);
const sdk =
  build === 'cjs' ? createRequire(import.meta.url)('agentchat') : await import('agentchat');
const {
  Client,
  OAuthError,
  githubActionsIdentityToken,
  googleIdentityToken,
  identityTokenFile,
  workloadIdentity,
} = sdk;

// What the platforms set in the workload's environment.
process.env.ACTIONS_ID_TOKEN_REQUEST_URL = settings.githubUrl;
process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = settings.githubToken;
process.env.GCE_METADATA_HOST = settings.metadataHost;

const common = {
  issuer: settings.issuer,
  clientId: settings.clientId,
  scope: settings.scope,
  resource: settings.resource,
};
const sources = {
  file: [identityTokenFile(settings.tokenFile), 'jwt-bearer'],
  github: [githubActionsIdentityToken({ audience: settings.audience }), 'jwt-bearer'],
  google: [googleIdentityToken({ audience: settings.audience }), 'token-exchange'],
};
const result = {};
for (const [name, [identityToken, grant]] of Object.entries(sources)) {
  const client = new Client({
    baseUrl: settings.baseUrl,
    apiKey: workloadIdentity({ ...common, grant, identityToken }),
  });
  const project = await client.projects.create({ name: `Federated by ${name}`, agentId: 'a' });
  result[name] = project.name;
}
const untrusted = workloadIdentity({
  ...common,
  identityToken: identityTokenFile(settings.untrustedFile),
});
result.untrusted = await Promise.resolve(untrusted({})).then(
  () => 'granted',
  (error) => (error instanceof OAuthError ? error.error : String(error)),
);
console.log(JSON.stringify(result));
