// `<runtime> network.mjs`: a program set up by its environment (AGENTCHAT_*, and what the runtime
// reads itself: proxy and CA variables). Given PROXY_URL, it also hands the client and the OAuth
// provider `fetchOptions` for that proxy, as docs/networks.md shows: a ProxyAgent of the undici at
// UNDICI_ENTRY on Node.js, `proxy` on Bun, a `Deno.createHttpClient` client on Deno. Reads one
// project; prints the outcome as one JSON line.
import { Client, clientCredentials } from 'agentchat';

let fetchOptions;
if (process.env.UNDICI_ENTRY) {
  const undici = await import(process.env.UNDICI_ENTRY);
  const { ProxyAgent } = undici.default ?? undici;
  // PROXY_TUNNEL: through a CONNECT tunnel, as for an https service (undici 8 forwards plain
  // http requests by default, undici 7 tunnels them).
  const uri = process.env.PROXY_URL;
  fetchOptions = {
    dispatcher: new ProxyAgent(process.env.PROXY_TUNNEL ? { uri, proxyTunnel: true } : uri),
  };
} else if (process.env.PROXY_URL && globalThis.Bun) {
  fetchOptions = { proxy: process.env.PROXY_URL };
} else if (process.env.PROXY_URL && globalThis.Deno) {
  fetchOptions = { client: Deno.createHttpClient({ proxy: { url: process.env.PROXY_URL } }) };
}
const apiKey =
  process.env.AGENTCHAT_CLIENT_ID === undefined ? undefined : clientCredentials({ fetchOptions });
// COUNT_ATTEMPTS: the outcome says how many attempts the call made, counted by a middleware.
let attempts = 0;
const middleware = process.env.COUNT_ATTEMPTS
  ? [
      (request, next) => {
        attempts++;
        return next(request);
      },
    ]
  : [];
const client = new Client({ fetchOptions, middleware, ...(apiKey && { apiKey }) });
let outcome;
try {
  outcome = { outcome: 'answered', name: (await client.projects.get('proj_network')).name };
} catch (error) {
  // A 404 is an answer: the request got there.
  const reached = error.name === 'NotFoundError';
  outcome = {
    outcome: reached ? 'answered' : error.name,
    ...(!reached && { message: error.message }),
  };
}
if (process.env.COUNT_ATTEMPTS) outcome.attempts = attempts;
await fetchOptions?.dispatcher?.close();
fetchOptions?.client?.close();
console.log(JSON.stringify(outcome));
